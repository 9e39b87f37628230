// Reading the files a command names. Every failure becomes a one-line reason; the command
// decides the exit code (2 for a contract, 8 for brief inputs and baseline transcripts).
//
// Any kind of file is read to its end under the size cap: a regular file, a pipe
// (`--diff-file <(git diff)`, `/dev/stdin`), a named FIFO, a character device. The file is
// opened non-blocking so that opening a FIFO nobody writes to cannot hang; its writer then has
// FIFO_WAIT_MS to show up (see fifoWaitMs). An inherited pipe (`/dev/stdin`, `/dev/fd/N`) is
// read from its descriptor (see inheritedStream).
import { isAscii, isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { sleepSync } from '../store/sleep';

export type ReadResult =
  | {
      path: string;
      text: string;
      /** The size read, in bytes, and whether it was a regular file (for a caller's own, smaller cap). */
      bytes: number;
      regular: boolean;
    }
  | {
      path: string;
      error: string;
      /** Set when the file is over the limit: its size when known (a regular file), else null. */
      tooLarge?: { size: number | null };
    };

const MiB = 1024 * 1024;
/** Bigger than any real contract; a 10 MB "contract" is refused before it is parsed. */
export const CONTRACT_LIMIT = 1 * MiB;
/** Diffs, verification output and transcripts: a 20 MB diff is ordinary, 256 MB is not. */
export const INPUT_LIMIT = 256 * MiB;
/** How long a FIFO may go without a writer (and without data) before it is refused. */
export const FIFO_WAIT_MS = 10_000;
/** Overrides FIFO_WAIT_MS (milliseconds; 0 = do not wait) for callers that know better. */
export const FIFO_WAIT_ENV = 'LOOP_LEDGER_FIFO_WAIT_MS';

const CHUNK = 64 * 1024;
const FD_PATH = /^\/(?:dev\/fd|proc\/self\/fd)\/(\d{1,9})$/;
/** O_NONBLOCK does not exist on Windows, where opening a named pipe does not block anyway. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Keeps a leading byte-order mark in the text (loop-engineering contracts: the original reads it as text). */
const utf8KeepingBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A refusal carried out of the read loop as a value-bearing exception. */
class Unreadable extends Error {}

class TooLarge extends Unreadable {
  constructor(
    limit: number,
    readonly size: number | null,
  ) {
    super(overLimitReason(limit, size));
  }
}

/** How a file over `limit` is refused: with its size when it is known (a regular file). */
export function overLimitReason(limit: number, size: number | null): string {
  return size === null ? `is over the ${limit}-byte limit` : `is ${size} bytes, over the ${limit}-byte limit`;
}

function errnoReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENXIO':
      return 'is a socket or a device that cannot be opened';
    case 'ENAMETOOLONG':
      return 'name too long';
    default:
      return code ?? 'unreadable';
  }
}

/** The FIFO wait in milliseconds, from the environment when set there. */
export function fifoWaitMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[FIFO_WAIT_ENV];
  if (raw === undefined || raw === '') return FIFO_WAIT_MS;
  if (!/^\d{1,9}$/.test(raw.trim())) {
    throw new Unreadable(
      `is a FIFO, and ${FIFO_WAIT_ENV} (the wait for its writer) must be a whole number of milliseconds, got ${JSON.stringify(raw)}`,
    );
  }
  return Number(raw.trim());
}

function overLimit(limit: number): Unreadable {
  return new TooLarge(limit, null);
}

/**
 * Reads `fd` to its end into one buffer that doubles as it fills (a pipe hands out a few KiB
 * per read; keeping each read's buffer would hold far more memory than the data). `head` is
 * what was already read. A non-blocking descriptor with no data yet (EAGAIN) is waited on: its
 * writer is there, and the caller named it. A FIFO that reports end-of-file before any byte may
 * have no writer yet: it gets fifoWaitMs() for one to appear.
 */
function readToEnd(fd: number, limit: number, fifo: boolean, head?: Buffer): Buffer {
  let buffer = head ?? Buffer.allocUnsafe(Math.min(CHUNK, limit + 1));
  let total = head?.length ?? 0;
  let writerSeen = !fifo || total > 0;
  let deadline = 0;
  let pause = 1;
  for (;;) {
    if (total === buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(Math.max(buffer.length * 2, CHUNK), limit + 1));
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
      deadline ||= Date.now() + fifoWaitMs();
      if (Date.now() >= deadline) {
        const seconds = (fifoWaitMs() / 1000).toString();
        throw new Unreadable(
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
    if (total > limit) throw overLimit(limit);
  }
  return buffer.subarray(0, total);
}

/**
 * A regular file: one read of its stated size, then a probe for more (it may have grown while
 * being read, or be a /proc file that states size 0); only then is it read on to its end.
 */
function readRegular(fd: number, size: number, limit: number): Buffer {
  if (size > limit) throw new TooLarge(limit, size);
  const buffer = Buffer.allocUnsafe(size);
  let offset = 0;
  while (offset < size) {
    const n = readSync(fd, buffer, offset, size - offset, null);
    if (n === 0) return buffer.subarray(0, offset); // shrank while being read
    offset += n;
  }
  const probe = Buffer.allocUnsafe(Math.min(CHUNK, limit + 1));
  const more = readSync(fd, probe, 0, probe.length, null);
  if (more === 0) return buffer;
  if (size + more > limit) throw overLimit(limit);
  return readToEnd(fd, limit, false, Buffer.concat([buffer, probe.subarray(0, more)]));
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

function readBytes(path: string, limit: number): { bytes: Buffer; regular: boolean } {
  const inherited = inheritedStream(path);
  if (inherited !== null) return { bytes: readToEnd(inherited, limit, false), regular: false };
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new Unreadable('is a directory');
    if (stat.isFile()) return { bytes: readRegular(fd, stat.size, limit), regular: true };
    return { bytes: readToEnd(fd, limit, stat.isFIFO()), regular: false };
  } finally {
    closeSync(fd);
  }
}

/** readBytes, or the one-line reason it failed (readTextFile's and readUtf8File's first step). */
function readBytesOrReason(
  path: string,
  limit: number,
): { bytes: Buffer; regular: boolean } | Extract<ReadResult, { error: string }> {
  try {
    return readBytes(path, limit);
  } catch (error) {
    if (error instanceof TooLarge) return { path, error: error.message, tooLarge: { size: error.size } };
    return { path, error: error instanceof Unreadable ? error.message : errnoReason(error) };
  }
}

/** The UTF-8 text of `path`, whatever kind of file it is, or why it cannot be had. */
export function readTextFile(
  path: string,
  limit: number,
  options: { keepByteOrderMark?: boolean } = {},
): ReadResult {
  const read = readBytesOrReason(path, limit);
  if ('error' in read) return read;
  try {
    const decoder = options.keepByteOrderMark ? utf8KeepingBom : utf8;
    return { path, text: decoder.decode(read.bytes), bytes: read.bytes.length, regular: read.regular };
  } catch {
    return { path, error: 'is not valid UTF-8 text' };
  }
}

export type Utf8ReadResult = { path: string; utf8: Buffer; ascii: boolean } | { path: string; error: string };

const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

/**
 * The bytes of `path` when they are UTF-8 text, for a caller that reads a big text without
 * decoding it (`brief`'s diff): refused exactly as readTextFile refuses, and `utf8` holds the
 * bytes of readTextFile's text: validated as UTF-8 (`isUtf8` accepts what the fatal decoder
 * accepts), with the one leading byte-order mark the decoder strips removed.
 */
export function readUtf8File(path: string, limit: number): Utf8ReadResult {
  const read = readBytesOrReason(path, limit);
  if ('error' in read) return { path, error: read.error };
  // ASCII is UTF-8, and most diffs are ASCII: one check tells the engine and spares the other.
  if (isAscii(read.bytes)) return { path, utf8: read.bytes, ascii: true };
  const utf8 = utf8TextBytes(read.bytes);
  return utf8 === null ? { path, error: 'is not valid UTF-8 text' } : { path, utf8, ascii: false };
}

/**
 * The bytes of the text readTextFile's decoder would give (`decode(bytes)` as UTF-8 equals
 * `decode(utf8TextBytes(bytes))` keeping any mark), or null where it would refuse them.
 */
export function utf8TextBytes(bytes: Buffer): Buffer | null {
  if (!isUtf8(bytes)) return null;
  const bom = BYTE_ORDER_MARK.every((byte, i) => bytes[i] === byte);
  return bom ? bytes.subarray(BYTE_ORDER_MARK.length) : bytes;
}
