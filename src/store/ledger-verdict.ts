// What a ledger file's bytes say, decided without touching the disk: the verdicts (absent, ok,
// corrupt, too new) for a file that could not be opened, is not a regular file, is over the size
// cap, is not UTF-8, is not JSON or not a ledger. The readers (read-steps.ts, driven by
// read-sync.ts and read-async.ts) only fetch the bytes; every rule about them is here, once.
import { isUtf8 } from 'node:buffer';
import type { Stats } from 'node:fs';
import { basename } from 'node:path';
import type { Ledger } from '../engine/types';
import { scanLedgerJson, type RecordsSpan } from './json-scan';
import { ledgerShapeProblem } from './ledger-shape';
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

/** The verdict on a ledger file's bytes. */
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

/** The verdict when a ledger file cannot even be opened. */
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

function tooLarge(size: number): string {
  const limit = LEDGER_SIZE_LIMIT / MiB;
  return `is ${(size / MiB).toFixed(1)} MiB, over the ${limit} MiB ledger size limit; it was not read`;
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
 * The checks of a ledger after decoding, also for text that did not come from a file. `session`, when given, is the id the file is named
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
  const scan = scanLedgerJson(text, record, proven, bytes);
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
