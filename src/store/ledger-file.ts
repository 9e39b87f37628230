// Reading and writing one ledger file. Reading never throws for a bad file: the caller gets a
// verdict (absent, ok, corrupt, too new) and decides the exit code and message. Writing goes
// through the atomic writer; the caller holds the ledger's lock around read-decide-write.
import { isUtf8 } from 'node:buffer';
import {
  closeSync,
  constants,
  copyFileSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readSync,
  renameSync,
  type Stats,
} from 'node:fs';
import { basename } from 'node:path';
import type { RecordsSummary } from '../engine/records-summary';
import type { Ledger } from '../engine/types';
import { removeDeadWritersTemps, writeFileAtomicSync } from './atomic-write';
import { scanLedgerJson, type RecordsSpan } from './json-scan';
import { ledgerShapeProblem } from './ledger-shape';
import { layoutLedger, layoutLedgerParts, type PreviousText } from './ledger-layout';
import { LEDGER_SIZE_LIMIT, MiB } from './limits';
import { provenRecords } from './records-digest';

/** The ledger layout this build writes. The original engine's files carry no version at all. */
export const SCHEMA_VERSION = 1;

/** `loop-ledger`: carries `schema_version`; `original`: written by work-loop, no version key. */
export type LedgerFormat = 'loop-ledger' | 'original';

export type LedgerRead =
  | { kind: 'absent' }
  | {
      kind: 'ok';
      ledger: Ledger;
      text: string;
      format: LedgerFormat;
      /** Where the iteration records' text sits in `text`, when an append may reuse it. */
      records: RecordsSpan | null;
      /** The file's bytes `text` was decoded from (after any byte-order mark), when read from a file. */
      bytes?: Buffer;
    }
  | { kind: 'corrupt'; reason: string }
  | { kind: 'too-new'; version: number };

// O_NOFOLLOW: a symlink in a ledger's place is refused, never followed (a cloned repository can
// point it at /dev/zero or at a file outside the workspace). O_NONBLOCK: opening a FIFO returns
// at once instead of waiting for a writer that never comes. Neither exists on Windows.
export const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Reads and checks a ledger file. Only a regular file no larger than LEDGER_SIZE_LIMIT is read,
 * and its size is taken from the opened descriptor, so what is checked is what is read.
 */
export function readLedgerFile(path: string): LedgerRead {
  const loaded = loadLedgerBytes(path);
  if (!Buffer.isBuffer(loaded)) return loaded;
  return decodeLedgerBytes(loaded, path);
}

/** The verdict on a ledger file's bytes (shared by the synchronous and the asynchronous reader). */
export function decodeLedgerBytes(bytes: Buffer, path: string): LedgerRead {
  // A stray byte must not turn into U+FFFD and then be written back as if it were data. The
  // decoder turns every byte that is not UTF-8 into U+FFFD, so text without one came from valid
  // UTF-8; only text holding one is checked byte by byte (it may also be a real U+FFFD). A
  // one-byte string (ASCII or Latin-1 text, the original engine's files) answers `includes` at
  // once, which saves a pass over the bytes (~25 ms cold on a 10 MB ledger).
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const text = bytes.toString('utf8', bom);
  if (text.includes('\uFFFD') && !isUtf8(bytes))
    return { kind: 'corrupt', reason: 'is not valid UTF-8 text' };
  return parseLedgerText(text, sessionOfFile(path), bytes.subarray(bom));
}

/** `s1` for `…/s1.json`; undefined for a name that is not `<session>.json`. */
function sessionOfFile(path: string): string | undefined {
  const name = basename(path);
  return name.endsWith('.json') ? name.slice(0, -'.json'.length) : undefined;
}

/** The verdict when a ledger file cannot even be opened (also the asynchronous reader's). */
export function openFailure(error: unknown): LedgerRead {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { kind: 'absent' };
  if (code === 'ELOOP')
    return { kind: 'corrupt', reason: 'is a symbolic link; ledgers are read only from regular files' };
  return readFailure(error);
}

/** The verdict when reading an opened ledger file failed. */
export function readFailure(error: unknown): LedgerRead {
  const code = (error as NodeJS.ErrnoException).code;
  return { kind: 'corrupt', reason: `cannot be read (${code ?? (error as Error).message})` };
}

/** Null when the opened file may be read, else why not: not a regular file, or over the cap. */
export function unreadableEntry(stat: Stats): LedgerRead | null {
  if (!stat.isFile()) {
    return {
      kind: 'corrupt',
      reason: `is ${entryKind(stat)}, not a regular file; ledgers are read only from regular files`,
    };
  }
  if (stat.size > LEDGER_SIZE_LIMIT) return oversized(stat.size);
  return null;
}

/** The verdict on a file found to hold `size` bytes, over LEDGER_SIZE_LIMIT. */
export function oversized(size: number): LedgerRead {
  return { kind: 'corrupt', reason: tooLarge(size) };
}

/**
 * The bytes of a regular file of at most LEDGER_SIZE_LIMIT, read as a ledger is (no symlink
 * followed, no FIFO or device waited on), or undefined: for the run's own small files, which a
 * cloned repository could replace by a link to a device that never ends.
 */
export function readRegularFileBytes(path: string): Buffer | undefined {
  const read = loadLedgerBytes(path);
  return Buffer.isBuffer(read) ? read : undefined;
}

/** The bytes of a ledger file, or the verdict when it cannot be read (readLedgerFile's first step). */
export function loadLedgerBytes(path: string): Buffer | LedgerRead {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    return openFailure(error);
  }
  try {
    const stat = fstatSync(fd);
    return unreadableEntry(stat) ?? readAll(fd, stat.size);
  } catch (error) {
    return readFailure(error);
  } finally {
    closeSync(fd);
  }
}

function tooLarge(size: number): string {
  const limit = LEDGER_SIZE_LIMIT / MiB;
  return `is ${(size / MiB).toFixed(1)} MiB, over the ${limit} MiB ledger size limit; it was not read`;
}

/**
 * Reads to the end, whatever fstat said (a file can grow while it is read), but never past the
 * limit: the cap holds even for a file that keeps growing.
 */
function readAll(fd: number, size: number): Buffer | LedgerRead {
  let buffer = Buffer.allocUnsafe(Math.max(size + 1, 64 * 1024));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > LEDGER_SIZE_LIMIT) return { kind: 'corrupt', reason: tooLarge(length) };
      const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, LEDGER_SIZE_LIMIT + 1));
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const got = readSync(fd, buffer, length, buffer.length - length, null);
    if (got === 0) break;
    length += got;
  }
  if (length > LEDGER_SIZE_LIMIT) return { kind: 'corrupt', reason: tooLarge(length) };
  return buffer.subarray(0, length);
}

function entryKind(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  return 'not a file';
}

/**
 * The checks of readLedgerFile after decoding, for text that did not come from a file (the
 * extension's asynchronous reader). Pure. `session`, when given, is the id the file is named
 * after: a ledger claiming another session is corrupt.
 */
export function parseLedgerText(text: string, session?: string, bytes?: Buffer): LedgerRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (error instanceof RangeError) return { kind: 'corrupt', reason: 'is nested too deeply to read' };
    return { kind: 'corrupt', reason: `is not valid JSON (${jsonErrorPlace(text, error as Error)})` };
  }
  try {
    return checkParsed(text, value, session, bytes);
  } catch (error) {
    // A hand-made file nested thousands of levels deep exhausts the stack in the checks below.
    if (error instanceof RangeError) return { kind: 'corrupt', reason: 'is nested too deeply to read' };
    throw error;
  }
}

/**
 * Where JSON.parse stopped, as line and column. Its message is not passed on: V8 quotes a
 * snippet of the text, and a message about a ledger never quotes a file's content (the
 * "ledger" may be a symlinked folder's file that is not ours at all).
 */
function jsonErrorPlace(text: string, error: Error): string {
  if (text.trim() === '') return 'the file is empty';
  // "Expected ',' or '}' after property value in JSON at position 6": no content in there.
  const at = /^(.*?) (?:in|after) JSON at position (\d+)/s.exec(error.message);
  if (at === null) {
    return /end of JSON input/.test(error.message) ? 'it ends too early' : 'it holds an unexpected character';
  }
  const position = Number(at[2]);
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < position; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  const what = (at[1] as string).replace(/^\w/, (c) => c.toLowerCase());
  return `${what}, at line ${line}, column ${position - lineStart + 1}`;
}

/** `bytes`, when given, is what `text` was decoded from (the records' digest hashes them). */
function checkParsed(
  text: string,
  value: unknown,
  session: string | undefined,
  bytes: Buffer | undefined,
): LedgerRead {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'corrupt', reason: `holds ${describe(value)}, not a ledger object` };
  }
  const record = value as Record<string, unknown>;
  // The version comes first: a newer layout may have moved the keys checked below, and must
  // be reported as "too new" rather than "corrupt" (and never overwritten).
  const hasVersion = Object.prototype.hasOwnProperty.call(record, 'schema_version');
  if (hasVersion) {
    const version = record.schema_version;
    if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
      return {
        kind: 'corrupt',
        reason: `has schema_version as ${describe(version)}, not a positive integer`,
      };
    }
    if (version > SCHEMA_VERSION) return { kind: 'too-new', version };
  }
  // JSON.parse keeps the last of two equal keys; the original engine (Python) did the same, and
  // a reused record text would keep the first: either way one of them is silently dropped.
  // Records byte for byte as this store last wrote them are not checked again (records-digest.ts).
  const proven = provenRecords(text, record, bytes);
  const scan = scanLedgerJson(text, record, proven);
  if (scan.duplicate !== null) return { kind: 'corrupt', reason: scan.duplicate };
  const problem = ledgerShapeProblem(record, session, proven !== null);
  if (problem !== null) return { kind: 'corrupt', reason: problem };
  return {
    kind: 'ok',
    ledger: value as Ledger,
    text,
    format: hasVersion ? 'loop-ledger' : 'original',
    records: scan.records,
    ...(bytes !== undefined && { bytes }),
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/** The file text, with `schema_version` set (layout: ledger-layout.ts). */
export function serializeLedger(ledger: Ledger, previous?: PreviousText): string {
  return layoutLedger({ ...ledger, schema_version: SCHEMA_VERSION }, previous);
}

/**
 * A write refused because the ledger it would leave is over LEDGER_SIZE_LIMIT: every reader
 * refuses such a file, so writing it would lock the loop out of its own ledger.
 */
export class LedgerTooLargeError extends Error {
  constructor(path: string, size: number) {
    super(
      `${path}: this write would make the ledger ${(size / MiB).toFixed(1)} MiB, over the ${LEDGER_SIZE_LIMIT / MiB} MiB ledger size limit; nothing was written`,
    );
    this.name = 'LedgerTooLargeError';
  }
}

/**
 * Writes a ledger's parts atomically, unless together they pass LEDGER_SIZE_LIMIT (then
 * LedgerTooLargeError, and the file is left as it was). Shared by the full and the sealed writer.
 */
export function writeLedgerParts(path: string, parts: readonly (string | Uint8Array)[]): void {
  let size = 0;
  for (const part of parts)
    size += typeof part === 'string' ? Buffer.byteLength(part, 'utf8') : part.byteLength;
  if (size > LEDGER_SIZE_LIMIT) throw new LedgerTooLargeError(path, size);
  writeFileAtomicSync(path, parts);
  removeDeadWritersTemps(path);
}

/**
 * Writes the ledger atomically. Call it under withLock, after re-reading the file. Holding the
 * lock is also what makes it safe to sweep temporary files left by writers that were killed.
 * `summary`, when given, is the summary of exactly `ledger.iterations` (see layoutLedgerParts).
 */
export function saveLedgerFile(
  path: string,
  ledger: Ledger,
  previous?: PreviousText,
  summary?: RecordsSummary,
): void {
  writeLedgerParts(path, layoutLedgerParts({ ...ledger, schema_version: SCHEMA_VERSION }, previous, summary));
}

/**
 * Copies a ledger that is about to be replaced (`open --force` over a corrupt file) to
 * `<path>.corrupt-<YYYYMMDDTHHMMSSZ>` and returns the copy's path (an entry that is not a
 * readable regular file is renamed there instead). An existing copy from the
 * same second is never overwritten: a `-2`, `-3`… suffix is added instead. The copy is fsynced
 * so it is on disk before the caller's atomic rename replaces the original.
 */
export function keepCorruptCopy(path: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  // A symlink, a FIFO or a file over the size limit is never read (copying /dev/zero or a FIFO
  // would never end): the entry itself is moved aside instead, as it is.
  const entry = lstatSync(path);
  const moveAside = !entry.isFile() || entry.size > LEDGER_SIZE_LIMIT;
  for (let attempt = 1; ; attempt += 1) {
    const copy = attempt === 1 ? `${path}.corrupt-${stamp}` : `${path}.corrupt-${stamp}-${attempt}`;
    if (moveAside) {
      if (lstatOrNull(copy) !== null) continue;
      renameSync(path, copy);
      return copy;
    }
    try {
      copyFileSync(path, copy, constants.COPYFILE_EXCL);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    const fd = openSync(copy, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return copy;
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
