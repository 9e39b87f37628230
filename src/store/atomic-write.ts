// Atomic file replacement with node:fs only.
//
// Why not write-file-atomic: the CLI starts once per agent iteration and must cost at most
// ~1.3x a bare `node -e 0` (~21 ms here). Requiring write-file-atomic measured ~3.5 ms of
// startup on its own (it pulls in graceful-fs and friends), proper-lockfile another ~4 ms;
// together they would spend the whole budget. The steps below are the same ones it takes.
//
// A crash at any instant leaves either the old file or the new one: the new bytes go to a
// temporary file in the same folder (same file system, so rename is atomic), are fsynced
// before the rename (or a power loss could leave the new name pointing at empty blocks), and
// the folder is fsynced after it (so the rename itself survives a power loss).
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isAlive } from './lock';
import { sleepSync } from './sleep';

let counter = 0;

/**
 * The temporary name: hidden (a leading '.', which no session id can start with, so listings
 * skip it), unique per process (pid), per call (counter) and across pid reuse (random).
 */
function tempPathFor(target: string): string {
  const random = Math.random().toString(36).slice(2, 10);
  counter += 1;
  return join(dirname(target), `.${basename(target)}.${process.pid}.${counter}.${random}.tmp`);
}

/**
 * The permission bits to give the new file: the target's own when it exists (a user who made a
 * ledger 0600 or read-only keeps it so: the rename would otherwise replace it with a fresh
 * file at the umask's 0644), else undefined (a new file gets the umask's default).
 */
function keptMode(target: string): number | undefined {
  try {
    return statSync(target).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/**
 * The writer's pid when `name` is a temporary file of exactly `targetName` (see tempPathFor),
 * else null. A prefix test is not enough: the temporary files of session `a.json.7` start with
 * `.a.json.` too, so after the name come exactly pid, counter and random part, and nothing else.
 */
export function tempWriterPid(name: string, targetName: string): number | null {
  const prefix = `.${targetName}.`;
  if (!name.startsWith(prefix) || !name.endsWith('.tmp')) return null;
  const parts = name.slice(prefix.length, -'.tmp'.length).split('.');
  if (parts.length !== 3) return null;
  const [pid, count, random] = parts as [string, string, string];
  if (!/^[1-9][0-9]*$/.test(pid) || !/^[1-9][0-9]*$/.test(count) || !/^[0-9a-z]*$/.test(random)) return null;
  const value = Number(pid);
  return Number.isSafeInteger(value) ? value : null;
}

/**
 * Replaces `target` with `data` (UTF-8) atomically, creating its folder if needed. `data` may be
 * a list of parts written one after the other (text as UTF-8, bytes as they are), so a caller
 * holding most of the file as bytes already never joins it into one big string.
 */
export function writeFileAtomicSync(target: string, data: string | readonly (string | Uint8Array)[]): void {
  const dir = dirname(target);
  mkdirSync(dir, { recursive: true });
  const mode = keptMode(target);
  const temp = tempPathFor(target);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx'); // 'x': never reuse a file someone else is writing
    // fchmod, not open's mode argument: that one is filtered through the umask.
    if (mode !== undefined && process.platform !== 'win32') fchmodSync(fd, mode);
    if (typeof data === 'string')
      writeFileSync(fd, data, 'utf8'); // loops until every byte is written
    else for (const part of data) writeAll(fd, typeof part === 'string' ? Buffer.from(part, 'utf8') : part);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameWithRetry(temp, target);
  } catch (error) {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // already failing; the original error is the one to report
      }
    }
    try {
      unlinkSync(temp);
    } catch {
      // never created, or already renamed away
    }
    throw error;
  }
  fsyncDir(dir);
}

/** writeSync may write less than asked (a full disk, a signal): loop until every byte is out. */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
}

/**
 * writeFileAtomicSync's steps as promises, for the extension host: a multi-megabyte write and its
 * fsyncs run on libuv's threads and the window keeps painting. (No rename retry: the extension
 * writes these files only under `.loop/briefs/`, which no other process holds open.)
 */
export async function writeFileAtomic(target: string, data: string): Promise<void> {
  const dir = dirname(target);
  await mkdir(dir, { recursive: true });
  const mode = await stat(target).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  const temp = tempPathFor(target);
  let handle;
  try {
    handle = await open(temp, 'wx');
    if (mode !== undefined && process.platform !== 'win32') await handle.chmod(mode);
    await handle.writeFile(data, 'utf8');
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, target);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  const folder = await open(dir, 'r').catch(() => undefined);
  if (folder)
    await folder
      .sync()
      .catch(() => undefined)
      .finally(() => folder.close());
}

/**
 * On Windows a rename over a file another process has open (an editor, a virus scanner, the
 * extension reading it) fails transiently with EPERM/EACCES/EBUSY; graceful-fs retries for the
 * same reason. POSIX renames do not fail that way, so they are tried once.
 */
function renameWithRetry(from: string, to: string): void {
  const deadline = process.platform === 'win32' ? Date.now() + 1000 : 0;
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      renameSync(from, to);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const transient = code === 'EPERM' || code === 'EACCES' || code === 'EBUSY';
      if (!transient || Date.now() >= deadline) throw error;
      sleepSync(wait);
    }
  }
}

/** Makes a rename in `dir` durable. Some platforms (Windows) cannot open a folder: skip there. */
function fsyncDir(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // EINVAL/EISDIR on file systems that do not support it; the data itself is already synced
  } finally {
    closeSync(fd);
  }
}

/**
 * Deletes temporary files of `target` whose writer process is gone: a writer killed between
 * creating its temporary file and renaming it (SIGKILL, power loss) leaves one behind, and
 * without a sweep they pile up, one per crash. Call it only while holding the target's lock:
 * then no live writer of ours can be mid-write, and a temporary name carries its writer's pid.
 * Returns the names removed. Never throws: a sweep must not fail the write it follows.
 */
export function removeDeadWritersTemps(target: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = tempWriterPid(name, basename(target));
    if (pid === null || isAlive(pid)) continue;
    try {
      unlinkSync(join(dirname(target), name));
      removed.push(name);
    } catch {
      // another sweeper got it first, or the folder is read-only: nothing to report
    }
  }
  return removed;
}
