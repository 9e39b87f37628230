// The store's reads written once, without touching the disk. Each read is a generator that asks
// for what it needs (open a file, its stat, a read into a buffer, a folder's entries, whether a
// path exists) and decides from the answers: the size cap, the refusal of anything but a regular
// file, the verdicts. read-sync.ts answers the requests with blocking calls (the CLI);
// read-async.ts with promises (the extension host, which must never wait on the disk). One rule,
// two drivers that only do I/O, so the CLI and the extension cannot disagree about a file.
import { isUtf8 } from 'node:buffer';
import { constants, type Stats } from 'node:fs';
import { LEDGER_SIZE_LIMIT } from './limits';
import {
  decodeLedgerBytes,
  openFailure,
  oversized,
  readFailure,
  unreadableEntry,
  type LedgerRead,
} from './ledger-verdict';

// O_NOFOLLOW: a symlink in a ledger's place is refused, never followed (a cloned repository can
// point it at /dev/zero or at a file outside the workspace). O_NONBLOCK: opening a FIFO returns
// at once instead of waiting for a writer that never comes (a blocked open would also hold one
// of libuv's threads for good). Neither exists on Windows.
export const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** One entry of a folder, as the readers need it. */
export interface FolderEntry {
  name: string;
  directory: boolean;
}

/**
 * What a read asks of its driver. A failing `open`, `stat` or `read` is thrown into the step at
 * its `yield`, as the system's error. At most one file is open at a time; `close` never fails.
 */
export type ReadRequest =
  /** Opens `path` with READ_FLAGS; answers undefined. */
  | { kind: 'open'; path: string }
  /** The open file's Stats (fstat: what is checked is what is read). */
  | { kind: 'stat' }
  /**
   * Reads into `buffer` from the open file's current position, or from `position` when given
   * (the position is then not moved); answers the byte count, 0 at the end.
   */
  | { kind: 'read'; buffer: Buffer; offset: number; length: number; position?: number }
  | { kind: 'close' }
  /** The folder's entries (FolderEntry[]); [] when it cannot be read. */
  | { kind: 'entries'; dir: string }
  /** Whether `path` exists, links followed (existsSync's answer). */
  | { kind: 'exists'; path: string };

export type ReadAnswer = undefined | Stats | number | FolderEntry[] | boolean;

export type ReadSteps<T> = Generator<ReadRequest, T, ReadAnswer>;

/** What a driver got for a request: its answer, or the error the system threw. */
export type ReadReply = { answer: ReadAnswer } | { error: unknown };

/** The steps' next request after `reply`: an error is thrown into the step that asked. */
export function advance<T>(steps: ReadSteps<T>, reply: ReadReply): IteratorResult<ReadRequest, T> {
  return 'error' in reply ? steps.throw(reply.error) : steps.next(reply.answer);
}

/** The bytes of a regular file within a cap, or the verdict on why there are none. */
export type CappedBytes = { bytes: Buffer; mtimeMs: number } | { refused: LedgerRead; mtimeMs: number };

/**
 * A read that may answer from the file before it is read whole: given the buffer the whole read
 * reads into (room for the file and a byte; its pages cost only once written), it reads on from
 * the file's start and either answers (`early`) or says how many of the file's first bytes it
 * left at the buffer's start (`filled`), which the whole read then continues from.
 */
export type EarlyRead<T> = (buffer: Buffer) => ReadSteps<{ early: T } | { filled: number }>;

export function ledgerBytesSteps(path: string): ReadSteps<CappedBytes>;
export function ledgerBytesSteps<T>(
  path: string,
  early: EarlyRead<T>,
): ReadSteps<CappedBytes | { early: T; mtimeMs: number }>;
export function* ledgerBytesSteps<T>(
  path: string,
  early?: EarlyRead<T>,
): ReadSteps<CappedBytes | { early: T; mtimeMs: number }> {
  try {
    yield { kind: 'open', path };
  } catch (error) {
    return { refused: openFailure(error), mtimeMs: 0 };
  }
  let mtimeMs = 0;
  try {
    const stat = (yield { kind: 'stat' }) as Stats;
    mtimeMs = stat.mtimeMs;
    const refused = unreadableEntry(stat);
    if (refused) return { refused, mtimeMs };
    const buffer = Buffer.allocUnsafe(Math.max(stat.size + 1, 64 * 1024));
    let filled = 0;
    if (early !== undefined) {
      const got = yield* early(buffer);
      if ('early' in got) return { early: got.early, mtimeMs };
      filled = got.filled;
    }
    const bytes = yield* readToCap(buffer, filled, LEDGER_SIZE_LIMIT);
    return typeof bytes === 'number' ? { refused: oversized(bytes), mtimeMs } : { bytes, mtimeMs };
  } catch (error) {
    return { refused: readFailure(error), mtimeMs };
  } finally {
    yield { kind: 'close' };
  }
}

/**
 * Reads `length` bytes at the file's `position` into `buffer` at `offset`; the byte count (fewer
 * only at the file's end).
 */
export function* readAtSteps(
  buffer: Buffer,
  position: number,
  offset = 0,
  length = buffer.length - offset,
): ReadSteps<number> {
  let got = 0;
  while (got < length) {
    const read = (yield {
      kind: 'read',
      buffer,
      offset: offset + got,
      length: length - got,
      position: position + got,
    }) as number;
    if (read === 0) break;
    got += read;
  }
  return got;
}

/**
 * What to read of a long file without reading it all: its head — `count` bytes, or steps of
 * `step` bytes until `until` is found with `beyond` more bytes after it, never past `max` — and,
 * when `tail` is given, its last `tail` bytes (files under `minSize` bytes are not read at all).
 */
export interface PiecesAsk {
  head: number | { until: Buffer; beyond: number; step: number; max: number };
  tail?: number;
  minSize?: number;
}

/** The head and tail of one opened file; `tail` is empty when none was asked for. */
export interface Pieces {
  head: Buffer;
  tail: Buffer;
  size: number;
  mtimeMs: number;
}

/**
 * The head and tail `ask` names of a ledger file, opened as a ledger is (no symlink followed, no
 * FIFO waited on, only a regular file within the size cap): 'absent' when there is no file, null
 * when it is refused, too short, its head does not hold `until`, or it shrank while read. For a
 * look that must not cost a whole read of a long ledger: iterate's look at the contract before it
 * takes the lock, the overview's first look at the newest records.
 */
export function* ledgerPiecesSteps(path: string, ask: PiecesAsk): ReadSteps<Pieces | 'absent' | null> {
  try {
    yield { kind: 'open', path };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : null;
  }
  try {
    const stat = (yield { kind: 'stat' }) as Stats;
    if (unreadableEntry(stat) !== null || stat.size < (ask.minSize ?? 0)) return null;
    return yield* openedPieces(ask, stat);
  } catch {
    return null;
  } finally {
    yield { kind: 'close' };
  }
}

/** ledgerPiecesSteps on a file already opened and checked, of the given Stats. */
export function* openedPieces(ask: PiecesAsk, stat: Stats): ReadSteps<Pieces | null> {
  const size = stat.size;
  let head: Buffer;
  if (typeof ask.head === 'number') {
    const buffer = Buffer.allocUnsafe(ask.head);
    head = buffer.subarray(0, yield* readAtSteps(buffer, 0));
  } else {
    const found = yield* headUntil(ask.head, size);
    if (found === null) return null;
    head = found;
  }
  if (ask.tail === undefined) return { head, tail: Buffer.alloc(0), size, mtimeMs: stat.mtimeMs };
  const length = Math.min(ask.tail, size);
  const tail = Buffer.allocUnsafe(length);
  // A file that shrank while read: no pieces (the caller's full read comes anyway).
  if ((yield* readAtSteps(tail, size - length)) !== length) return null;
  return { head, tail, size, mtimeMs: stat.mtimeMs };
}

/** The first bytes up to and `beyond` past `until`, read in steps; null when not within `max`. */
function* headUntil(
  ask: { until: Buffer; beyond: number; step: number; max: number },
  size: number,
): ReadSteps<Buffer | null> {
  let head = Buffer.alloc(0);
  while (head.length < Math.min(size, ask.max)) {
    const step = Buffer.allocUnsafe(Math.min(ask.step, size - head.length));
    const got = yield* readAtSteps(step, head.length);
    if (got === 0) return null;
    // Searched from a little before the new bytes: the mark may straddle two steps.
    const from = Math.max(0, head.length - ask.until.length);
    head = Buffer.concat([head, step.subarray(0, got)]);
    const at = head.indexOf(ask.until, from);
    if (at >= 0 && head.length >= at + ask.until.length + ask.beyond) return head;
  }
  return null;
}

/** A ledger file's verdict, and the opened file's mtime (0 when unknown). Never throws for a bad file. */
export function* ledgerFileSteps(path: string): ReadSteps<{ read: LedgerRead; mtimeMs: number }> {
  const got = yield* ledgerBytesSteps(path);
  if ('refused' in got) return { read: got.refused, mtimeMs: got.mtimeMs };
  return { read: decodeLedgerBytes(got.bytes, path), mtimeMs: got.mtimeMs };
}

/**
 * Reads to the end, whatever stat said (a file can grow while it is read), but never past `cap`:
 * the cap holds even for a file that keeps growing. The bytes, or the count read once over the cap.
 * The read goes on into `start` (made with room for the size stat gave and a byte) after its first
 * `filled` bytes, the file's first, already read.
 */
function* readToCap(start: Buffer, filled: number, cap: number): ReadSteps<Buffer | number> {
  let buffer = start;
  let length = filled;
  for (;;) {
    if (length === buffer.length) {
      if (length > cap) return length;
      const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, cap + 1));
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const got = (yield { kind: 'read', buffer, offset: length, length: buffer.length - length }) as number;
    if (got === 0) break;
    length += got;
  }
  return length > cap ? length : buffer.subarray(0, length);
}

/** What a text file read found: the text, no file, or why the file is not read. */
export type TextRead =
  { kind: 'ok'; text: string } | { kind: 'absent' } | { kind: 'refused'; reason: string };

/**
 * A UTF-8 text file of at most `cap` bytes (a contract, a kept brief packet), read with the
 * ledger reader's flags and checks: no symlink followed, no FIFO waited on, only a regular file,
 * the cap enforced on the bytes read (not on a size the file may change after). Never throws.
 */
export function* textFileSteps(path: string, cap: number): ReadSteps<TextRead> {
  try {
    yield { kind: 'open', path };
  } catch (error) {
    const read = openFailure(error);
    return read.kind === 'absent' ? read : { kind: 'refused', reason: reasonOf(read) };
  }
  try {
    const stat = (yield { kind: 'stat' }) as Stats;
    if (!stat.isFile()) return { kind: 'refused', reason: 'is not a regular file' };
    if (stat.size > cap) return { kind: 'refused', reason: `is larger than ${cap} bytes` };
    const bytes = yield* readToCap(Buffer.allocUnsafe(Math.max(stat.size + 1, 64 * 1024)), 0, cap);
    if (typeof bytes === 'number') return { kind: 'refused', reason: `is larger than ${cap} bytes` };
    if (!isUtf8(bytes)) return { kind: 'refused', reason: 'is not valid UTF-8 text' };
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    return { kind: 'ok', text: bytes.toString('utf8', bom) };
  } catch (error) {
    return { kind: 'refused', reason: reasonOf(readFailure(error)) };
  } finally {
    yield { kind: 'close' };
  }
}

function reasonOf(read: LedgerRead): string {
  return read.kind === 'corrupt' ? read.reason.replace(/; ledgers are .*$/, '') : read.kind;
}

/**
 * The parsed JSON of a run folder's small file (its request, its link to a session), read as a
 * ledger is and decoded as readFileSync decodes; undefined when it cannot be read or is not JSON.
 */
export function* jsonFileSteps(path: string): ReadSteps<unknown> {
  const got = yield* ledgerBytesSteps(path);
  if ('refused' in got) return undefined;
  try {
    return JSON.parse(got.bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
