// A per-ledger exclusive lock with node:fs only, so the CLI and the extension never write over
// each other's update.
//
// Why not proper-lockfile: the CLI runs once per agent iteration and must cost at most ~1.3x a
// bare `node -e 0` (~21 ms here). Requiring proper-lockfile measured ~4 ms of startup (it loads
// graceful-fs, signal-exit, retry), write-file-atomic another ~3.5 ms: together they would eat
// the whole budget. It also works asynchronously, with a heartbeat that refreshes the lock's
// mtime; our critical sections are a few synchronous milliseconds, so a pid check plus a
// generous stale age does the same job with a fraction of the code.
//
// The lock is the file `<ledger>.lock`, created with O_CREAT|O_EXCL ('wx'): the kernel lets
// exactly one creator win. It holds {pid, hostname, acquired_at} so a waiter can tell whether
// the holder still exists. A holder killed at any instant (even SIGKILL, where no cleanup runs)
// leaves either no lock file, an empty one (killed between create and write), or one naming a
// pid that is now gone; the next caller breaks the last at once, the empty one after a second.
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmdirSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { isoUtc } from '../engine/utc-iso';
import { sleepSync } from './sleep';

/** A holder we cannot check (another host, or a pid reused by an unrelated process) is presumed
 * gone after this long; a real critical section lasts milliseconds. */
export const LOCK_STALE_MS = 30_000;
/** A lock file without readable content is a creator killed before it wrote; give a live
 * creator this long to finish writing it. */
const UNREADABLE_GRACE_MS = 1_000;
/** A break guard lives for microseconds; one this old was left by a breaker that was killed. */
const GUARD_STALE_MS = 1_000;
const DEFAULT_WAIT_MS = 2_000;
const FIRST_BACKOFF_MS = 2;
const MAX_BACKOFF_MS = 64;

let host: string | undefined;

/**
 * This machine's name, as gethostname(2) gives it. On Linux the kernel publishes the same name
 * (the UTS namespace's nodename) in /proc/sys/kernel/hostname; reading that file costs a few
 * microseconds, where loading node:os for os.hostname() measured ~0.3 ms of every writing CLI
 * command. Anywhere else, or if /proc is not mounted, os.hostname() answers.
 */
function thisHost(): string {
  host ??= procHostname() ?? osHostname();
  return host;
}

function procHostname(): string | null {
  if (process.platform !== 'linux') return null;
  try {
    const name = readFileSync('/proc/sys/kernel/hostname', 'utf8').replace(/\n$/, '');
    return name === '' ? null : name;
  } catch {
    return null;
  }
}

function osHostname(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('node:os') as typeof import('node:os')).hostname();
}

export interface LockHolder {
  pid: number;
  hostname: string;
  acquired_at: string;
  /**
   * The holder process's start time as the kernel counts it (Linux: field 22 of
   * /proc/<pid>/stat), so a pid reused by another program — or a lock file copied from another
   * checkout that names a live pid — is told apart from its real holder. Absent elsewhere.
   */
  pid_started?: string;
  /** Only a lock written before locks named their host: a bare pid, judged on this host. */
  legacy?: true;
}

/**
 * The start time of `pid` (clock ticks since boot) from /proc/<pid>/stat, or null where there is
 * no /proc or the process is gone. The name field may hold spaces and parentheses, so the
 * fields are counted from its closing parenthesis: starttime is the 20th after it.
 */
export function processStartTime(pid: number): string | null {
  if (process.platform !== 'linux') return null;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const start = fields[19];
  return start !== undefined && /^[0-9]+$/.test(start) ? start : null;
}

let ownStart: string | null | undefined;

function ownStartTime(): string | null {
  if (ownStart === undefined) ownStart = processStartTime(process.pid);
  return ownStart;
}

/** "pid N on HOST since T" — who holds a lock, for a message. */
export function describeHolder(holder: LockHolder | null): string {
  if (holder === null) return 'a process that has not written its pid yet';
  if (holder.legacy) return `pid ${holder.pid} (an older lock that names no host)`;
  return `pid ${holder.pid} on ${holder.hostname} since ${holder.acquired_at}`;
}

/** The ledger stayed locked by someone else for the whole wait (the CLI exits 3). */
/**
 * Something the store must not remove sits where the lock goes (a folder with content): the
 * operating system's file layout is in the way, not the ledger's state — the CLI's exit 74.
 */
export class LockObstructedError extends Error {
  constructor(
    readonly path: string,
    cause: unknown,
  ) {
    super(`${path} is a folder with content, not a lock file: move it away to write this ledger`, { cause });
    this.name = 'LockObstructedError';
  }
}

export class LockBusyError extends Error {
  constructor(
    readonly ledger: string,
    readonly holder: LockHolder | null,
    readonly waitedMs: number,
  ) {
    super(`ledger ${ledger} is busy: locked by ${describeHolder(holder)}; gave up after ${waitedMs} ms`);
    this.name = 'LockBusyError';
  }
}

/**
 * Runs `fn` while holding the ledger's lock; waits up to `waitMs` (default 2000) for another
 * holder, then throws LockBusyError. Not re-entrant: a nested call on the same ledger waits for
 * itself and reports busy.
 */
export function withLock<T>(ledgerFile: string, fn: () => T, opts: { waitMs?: number } = {}): T {
  const lockPath = `${ledgerFile}.lock`;
  const taken = takeLock(lockPath, { waitMs: opts.waitMs ?? DEFAULT_WAIT_MS, staleMs: LOCK_STALE_MS });
  if (!taken.held) throw new LockBusyError(ledgerFile, taken.holder, taken.waitedMs);
  let result: T;
  try {
    result = fn();
  } catch (error) {
    try {
      taken.release();
    } catch {
      // report fn's error, not the cleanup's
    }
    throw error;
  }
  taken.release();
  return result;
}

export interface TakeLockOptions {
  /** How long to wait for another holder (0: one attempt, plus the immediate retries). */
  waitMs: number;
  /**
   * A holder that cannot be checked (another host) — or, for a short critical section, one held
   * implausibly long — is presumed gone after this long. Infinity for a lock held for a whole
   * run: then only a provably gone holder (same host, pid dead or reused) loses it.
   */
  staleMs: number;
  /**
   * False for a lock held for a whole run: a holder that has written its lock and runs is
   * reported at once instead of waited on (only a lock still being written is given waitMs).
   */
  waitForHolder?: boolean;
}

export type TakenLock =
  { held: true; release: () => void } | { held: false; holder: LockHolder | null; waitedMs: number };

/**
 * The one lock primitive, keyed by its file: the ledger's lock, the repeat claim and the
 * work-order run lock all take theirs here, so each breaks a dead holder's lock the same careful
 * way (a guard, then a re-check) and none can be held by two processes. `release` removes the
 * lock only while it is still this holder's.
 */
export function takeLock(lockPath: string, opts: TakeLockOptions): TakenLock {
  const got = acquire(lockPath, opts.waitMs, opts.staleMs, opts.waitForHolder ?? true);
  if (typeof got !== 'string') return { held: false, holder: got.holder, waitedMs: got.waitedMs };
  return { held: true, release: () => release(lockPath, got) };
}

/** What a waiter saw at the lock path: one file (its inode) and its content, read together. */
interface Seen {
  ino: number;
  mtimeMs: number;
  text: string;
  holder: LockHolder | null;
  /**
   * Not a regular file (a symlink — dangling or not —, a FIFO, a folder…). We create the lock
   * with O_EXCL, which never follows or reuses an existing entry, so such an entry was never a
   * lock of ours: nobody holds it, and it would block every writer forever if left in place.
   */
  foreign: string | null;
}

/** A dangling entry can make the create fail (EEXIST) and the look find nothing (ENOENT) over and
 * over; a few immediate retries cover a real release in between, then the deadline applies. */
const IMMEDIATE_RETRIES = 3;

function acquire(
  lockPath: string,
  waitMs: number,
  staleMs: number,
  waitForHolder: boolean,
): string | { holder: LockHolder | null; waitedMs: number } {
  const began = Date.now();
  const deadline = began + waitMs;
  let backoff = FIRST_BACKOFF_MS;
  let madeDir = 0;
  let immediate = 0;
  for (;;) {
    const started = ownStartTime();
    const content = JSON.stringify({
      pid: process.pid,
      hostname: thisHost(),
      acquired_at: isoUtc(Date.now()),
      ...(started === null ? {} : { pid_started: started }),
    });
    const created = tryCreate(lockPath, content);
    if (created === 'created') return content;
    if (created === 'no-folder') {
      // The ledger's folder does not exist yet (first write of a session): make it. A refused
      // command in a fresh workspace removes the empty folder it made, so allow a few tries.
      if (madeDir >= 3)
        throw new Error(`cannot create the lock file ${lockPath}: its folder keeps disappearing`);
      mkdirSync(dirname(lockPath), { recursive: true });
      madeDir += 1;
      continue;
    }
    const seen = look(lockPath);
    // Released between our attempt and our look (or broken just now): try again at once, a few
    // times; past that every path below honours the deadline, so nothing can spin forever.
    const abandoned = seen !== null && isAbandoned(seen, Date.now(), staleMs);
    if (seen === null || (abandoned && breakLock(lockPath, seen))) {
      if (immediate < IMMEDIATE_RETRIES) {
        immediate += 1;
        continue;
      }
    } else {
      immediate = 0;
    }
    const now = Date.now();
    const known = !waitForHolder && seen !== null && seen.holder !== null && !abandoned;
    if (now >= deadline || known) return { holder: seen?.holder ?? null, waitedMs: now - began };
    // Jitter keeps waiters that started together from retrying in lockstep.
    sleepSync(Math.min(deadline - now, Math.ceil(backoff * (0.5 + Math.random()))));
    backoff = Math.min(backoff * 1.6, MAX_BACKOFF_MS);
  }
}

function tryCreate(lockPath: string, content: string): 'created' | 'exists' | 'no-folder' {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return 'exists';
    if (code === 'ENOENT') return 'no-folder';
    throw error;
  }
  try {
    writeSync(fd, content);
  } catch (error) {
    // An empty lock of ours would block everyone for UNREADABLE_GRACE_MS: take it back.
    closeSync(fd);
    unlinkSync(lockPath);
    throw error;
  }
  closeSync(fd);
  return 'created';
}

/**
 * Reads the lock file through one descriptor, so its inode, mtime and text all describe the
 * same file even if it is replaced meanwhile. Null when there is no lock file.
 */
function look(lockPath: string): Seen | null {
  let fd: number;
  try {
    // O_NOFOLLOW: a symlink is judged itself, never its target; O_NONBLOCK: a FIFO never blocks.
    fd = openSync(lockPath, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP' || code === 'EISDIR' || code === 'ENXIO') return lookForeign(lockPath);
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return foreignSeen(stat, kindOf(stat));
    const text = readFileSync(fd, 'utf8');
    return { ino: stat.ino, mtimeMs: stat.mtimeMs, text, holder: parseHolder(text), foreign: null };
  } finally {
    closeSync(fd);
  }
}

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCK = constants.O_NONBLOCK ?? 0;

/** The entry itself (lstat), for what cannot be opened as a file. Null when it vanished. */
function lookForeign(path: string): Seen | null {
  try {
    const stat = lstatSync(path);
    return foreignSeen(stat, kindOf(stat));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function foreignSeen(stat: { ino: number; mtimeMs: number }, kind: string): Seen {
  return { ino: stat.ino, mtimeMs: stat.mtimeMs, text: '', holder: null, foreign: kind };
}

function kindOf(stat: import('node:fs').Stats): string {
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isFile()) return 'a file';
  return 'a device';
}

function parseHolder(text: string): LockHolder | null {
  // The run lock and the repeat claim once held a bare pid and a newline: still honoured, so a
  // runner started by an older version keeps its lock.
  const bare = /^([1-9][0-9]{0,9})\n?$/.exec(text);
  if (bare)
    return { pid: Number(bare[1]), hostname: thisHost(), acquired_at: 'an unknown time', legacy: true };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { pid, hostname: host, acquired_at, pid_started } = value as Record<string, unknown>;
  // pid 0 and negative pids address process groups in kill(): never accept them.
  if (!Number.isSafeInteger(pid) || (pid as number) <= 0) return null;
  if (typeof host !== 'string' || typeof acquired_at !== 'string') return null;
  const holder: LockHolder = { pid: pid as number, hostname: host, acquired_at };
  if (typeof pid_started === 'string') holder.pid_started = pid_started;
  return holder;
}

/** May this lock be broken? Its holder is provably gone, or it has been held implausibly long. */
function isAbandoned(seen: Seen, now: number, staleMs: number): boolean {
  if (seen.foreign !== null) return true;
  const age = now - seen.mtimeMs;
  if (seen.holder === null) return age > UNREADABLE_GRACE_MS;
  if (seen.holder.hostname === thisHost() && !holderRuns(seen.holder)) return true;
  return age > staleMs;
}

/** The holder's process still exists and, where its start time was recorded, is that process. */
function holderRuns(holder: LockHolder): boolean {
  if (!isAlive(holder.pid)) return false;
  if (holder.pid_started === undefined) return true;
  const now = processStartTime(holder.pid);
  return now === null || now === holder.pid_started;
}

/** kill(pid, 0) delivers nothing; it only asks whether the pid exists. EPERM = exists, not ours. */
export function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Removes an abandoned lock without ever removing a live one. Returns true when the caller
 * should retry the create at once (the abandoned file is gone, by our hand or another's).
 *
 * The danger is two waiters judging the same dead lock: if both simply unlinked it, the
 * second unlink could hit the fresh lock the first one created in between, and both would
 * "hold" the ledger. Renaming the lock aside does not close that gap by itself either: the
 * second waiter's rename could move the first one's fresh lock, and putting it back leaves
 * a moment with no lock for a third process to take. So breakers take turns instead: a
 * breaker first creates `<lock>.break` with O_EXCL (only one can), then re-reads the lock
 * and unlinks it only if it is still the very file it judged (same inode, mtime and text).
 * A waiter that loses the guard race just waits and looks again. While the guard is held,
 * nobody else removes the lock (its dead holder never will) and creators cannot replace an
 * existing file, so the re-check and the unlink see the same file.
 *
 * What is left, by design: (1) a holder that is alive but judged stale by age (> 30 s, or on
 * another host) may release at the same instant it is broken; (2) a breaker killed within
 * the microseconds it holds the guard leaves it behind, and the guard is then cleared after
 * a second by age, without a re-check. Both need a crash or a 30-second critical section and
 * a race measured in microseconds.
 */
function breakLock(lockPath: string, judged: Seen): boolean {
  const guard = `${lockPath}.break`;
  let fd: number;
  try {
    fd = openSync(guard, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    clearOrphanedGuard(guard);
    return false;
  }
  closeSync(fd);
  try {
    const now = look(lockPath);
    if (now === null) return true;
    if (now.ino !== judged.ino || now.mtimeMs !== judged.mtimeMs || now.text !== judged.text) return true;
    if (now.foreign === 'a folder') removeFolder(lockPath);
    else unlinkQuietly(lockPath);
    return true;
  } finally {
    unlinkQuietly(guard);
  }
}

/** By age, on the entry itself (lstat): a dangling symlink guard is cleared like a stale file. */
function clearOrphanedGuard(guard: string): void {
  let stat;
  try {
    stat = lstatSync(guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (Date.now() - stat.mtimeMs <= GUARD_STALE_MS) return;
  if (stat.isDirectory()) removeFolder(guard);
  else unlinkQuietly(guard);
}

/** An empty folder in the lock's place is removed; one with content is someone's data: say so. */
function removeFolder(path: string): void {
  try {
    rmdirSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw new LockObstructedError(path, error);
  }
}

/**
 * Deletes the lock only if it is still ours: if we were judged stale and broken, the file
 * now belongs to the next holder and must stay.
 */
function release(lockPath: string, mine: string): void {
  const seen = look(lockPath);
  if (seen !== null && seen.text === mine) unlinkQuietly(lockPath);
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
