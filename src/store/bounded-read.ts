// The one capped reader, in two modes.
//
// Files a repository can carry (agent configs, objectives, sidecars, lock and state files):
// a clone can put a FIFO, a device such as /dev/zero, or a huge file where a small file is
// expected, and none of them may hang or exhaust a command. readBoundedFile takes regular files
// only (links to one are followed, as the originals read through links) and refuses a FIFO at
// once.
//
// Files a person names on the command line (contracts, `--diff-file <(git diff)`, `/dev/stdin`):
// readBoundedStream reads any kind of file to its end under the cap: a regular file, a pipe, a
// named FIFO, a character device. Its FIFO's writer has FIFO_WAIT_MS to show up (see
// fifoWaitMs); an inherited pipe (`/dev/stdin`, `/dev/fd/N`) is read from its descriptor (see
// inheritedStream).
//
// Both open non-blocking (opening a FIFO nobody writes to cannot hang) and never read past the
// cap, even while the file grows.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { MiB } from './limits';
import { sleepSync } from './sleep';

/** Agent configs, objectives, sidecars: far bigger than any real one (a 50 MB TOML took 55 s to parse). */
export const SMALL_FILE_LIMIT = 1 * MiB;
/** How long a FIFO may go without a writer (and without data) before it is refused. */
export const FIFO_WAIT_MS = 10_000;
/** Overrides FIFO_WAIT_MS (milliseconds; 0 = do not wait) for callers that know better. */
export const FIFO_WAIT_ENV = 'LOOP_LEDGER_FIFO_WAIT_MS';

/** A file that cannot be read under the cap; the message is one line naming it. */
export class UnreadableFileError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly missing = false,
    /** Set when the file is over the cap: its size when known (a regular file), else null. */
    readonly tooLarge?: { size: number | null },
  ) {
    super(`${path}: ${reason}`);
    this.name = 'UnreadableFileError';
  }
}

/** How a file over `limit` is refused: with its size when it is known (a regular file). */
export function overLimitReason(limit: number, size: number | null): string {
  return size === null ? `is over the ${limit}-byte limit` : `is ${size} bytes, over the ${limit}-byte limit`;
}

/** O_NONBLOCK does not exist on Windows, where opening a named pipe does not block anyway. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const CHUNK = 64 * 1024;
const FD_PATH = /^\/(?:dev\/fd|proc\/self\/fd)\/(\d{1,9})$/;

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** Why the system refused; `streams` says whether the reader takes more than regular files. */
function systemReason(error: unknown, streams: boolean): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return streams ? 'is a directory' : 'is a folder, not a regular file';
    case 'ENXIO':
      return streams
        ? 'is a socket or a device that cannot be opened'
        : 'is a socket or a device, not a regular file';
    case 'ENAMETOOLONG':
      return 'name too long';
    default:
      return streams ? (code ?? 'unreadable') : `cannot read (${code ?? 'unreadable'})`;
  }
}

/** The FIFO wait in milliseconds, from the environment when set there. */
export function fifoWaitMs(path: string, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[FIFO_WAIT_ENV];
  if (raw === undefined || raw === '') return FIFO_WAIT_MS;
  if (!/^\d{1,9}$/.test(raw.trim())) {
    throw new UnreadableFileError(
      path,
      `is a FIFO, and ${FIFO_WAIT_ENV} (the wait for its writer) must be a whole number of milliseconds, got ${JSON.stringify(raw)}`,
    );
  }
  return Number(raw.trim());
}

const overLimit = (path: string, limit: number, size: number | null = null) =>
  new UnreadableFileError(path, overLimitReason(limit, size), false, { size });

/**
 * Reads `fd` to its end into one buffer that doubles as it fills (a pipe hands out a few KiB per
 * read; keeping each read's buffer would hold far more memory than the data), never past
 * `limit` + 1 bytes. `size` is the stated size of a regular file (the first read takes all of
 * it; the file may still grow, or be a /proc file that states 0). A non-blocking descriptor with
 * no data yet (EAGAIN) is waited on: its writer is there, and the caller named it. A FIFO that
 * reports end-of-file before any byte may have no writer yet: it gets fifoWaitMs() for one.
 */
function readToEnd(path: string, fd: number, limit: number, fifo: boolean, size = 0): Buffer {
  let buffer = Buffer.allocUnsafe(Math.min(Math.max(size + 1, CHUNK), limit + 1));
  let total = 0;
  let writerSeen = !fifo;
  let deadline = 0;
  let pause = 1;
  for (;;) {
    if (total === buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1));
      buffer.copy(grown, 0, 0, total);
      buffer = grown;
    }
    let n: number;
    try {
      n = readSync(fd, buffer, total, buffer.length - total, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      writerSeen = true; // a FIFO answers EAGAIN only while a writer holds it open
      sleepSync(pause);
      pause = Math.min(pause * 2, 20);
      continue;
    }
    if (n === 0) {
      if (writerSeen) break;
      deadline ||= Date.now() + fifoWaitMs(path);
      if (Date.now() >= deadline) {
        const seconds = (fifoWaitMs(path) / 1000).toString();
        throw new UnreadableFileError(
          path,
          `is a FIFO with no writer and no data after ${seconds} s (set ${FIFO_WAIT_ENV} to wait longer)`,
        );
      }
      sleepSync(pause);
      pause = Math.min(pause * 2, 20);
      continue;
    }
    writerSeen = true;
    pause = 1;
    total += n;
    if (total > limit) throw overLimit(path, limit);
  }
  return buffer.subarray(0, total);
}

/**
 * The descriptor behind `/dev/stdin` or `/dev/fd/N` when it is a pipe or a socket this process
 * inherited (`<(git diff)`, `cmd | loop-ledger … /dev/stdin`): read it directly, blocking. Its
 * writer existed before this process did, so there is no writer to wait for; and re-opening a
 * socket through /dev/fd fails. Anything else is opened by path as usual.
 */
function inheritedStream(path: string): number | null {
  const match = path === '/dev/stdin' ? ['', '0'] : FD_PATH.exec(path);
  if (!match) return null;
  const fd = Number(match[1]);
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket() ? fd : null;
  } catch {
    return null; // not open here: opening the path reports it
  }
}

/** Opens `path` and reads it under `limit`; any failure becomes an UnreadableFileError. */
function readCapped(path: string, limit: number, streams: boolean): { bytes: Buffer; regular: boolean } {
  try {
    const inherited = streams ? inheritedStream(path) : null;
    if (inherited !== null) return { bytes: readToEnd(path, inherited, limit, false), regular: false };
    const fd = openSync(path, OPEN_FLAGS);
    try {
      const stat = fstatSync(fd);
      if (stat.isFile()) {
        if (stat.size > limit) throw overLimit(path, limit, stat.size);
        return { bytes: readToEnd(path, fd, limit, false, stat.size), regular: true };
      }
      if (!streams) throw new UnreadableFileError(path, `is ${kindOf(stat)}, not a regular file`);
      if (stat.isDirectory()) throw new UnreadableFileError(path, 'is a directory');
      return { bytes: readToEnd(path, fd, limit, stat.isFIFO()), regular: false };
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if (error instanceof UnreadableFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UnreadableFileError(path, systemReason(error, streams), code === 'ENOENT');
  }
}

/** The bytes of the regular file `path`, at most `limit`; throws UnreadableFileError otherwise. */
export function readBoundedFile(path: string, limit: number = SMALL_FILE_LIMIT): Buffer {
  return readCapped(path, limit, false).bytes;
}

/**
 * The bytes of `path`, whatever kind of file it is, at most `limit`, and whether it was a
 * regular file (for a caller's own, smaller cap); throws UnreadableFileError otherwise.
 */
export function readBoundedStream(path: string, limit: number): { bytes: Buffer; regular: boolean } {
  return readCapped(path, limit, true);
}

/** readBoundedFile as UTF-8 text (invalid sequences become U+FFFD, as readFileSync gives them). */
export function readBoundedText(path: string, limit: number = SMALL_FILE_LIMIT): string {
  return readBoundedFile(path, limit).toString('utf8');
}

/** readBoundedFile, or undefined for any refusal: for optional files that read as absent. */
export function readBoundedOrUndefined(path: string, limit: number = SMALL_FILE_LIMIT): Buffer | undefined {
  try {
    return readBoundedFile(path, limit);
  } catch {
    return undefined;
  }
}
