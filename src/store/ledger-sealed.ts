// The fast path of `status` and `iterate` over a long ledger this store wrote: when the file is
// exactly this store's layout and its seal (records-digest.ts) matches, only the header is
// parsed, the old records are answered for by the sealed summary, and an append carries them
// into the next file as the bytes they are — no 7 MB parse, no 7 MB string, one hash pass.
//
// Anything this reader cannot prove returns null, and the caller takes the full read
// (ledger-file.ts), which reports what is wrong or reads what is right: a missing or unreadable
// file, a BOM, text that is not UTF-8, a header that is not byte for byte what the layout writes
// for its own parse (a hand edit, a repeated key, another writer's formatting), a newer or older
// schema, a header the shape check refuses, a seal or summary that does not match, records that
// are not one per line. Only `status` and `iterate` use it; every other command, the extension's
// reader and every write that is not a plain append take the full path.
import { isUtf8 } from 'node:buffer';
import type { Hash } from 'node:crypto';
import { addRecord, type RecordsSummary } from '../engine/records-summary';
import type { IterationRecord, Ledger } from '../engine/types';
import { removeDeadWritersTemps, writeFileAtomicSync } from './atomic-write';
import { readRegularFileBytes, SCHEMA_VERSION } from './ledger-file';
import { layoutFrame, RECORD_SEPARATOR } from './ledger-layout';
import { ledgerShapeProblem } from './ledger-shape';
import {
  DIGEST_MIN_BYTES,
  finishDigest,
  hashOfRecords,
  RECORDS_DIGEST_KEY,
  RECORDS_SUMMARY_KEY,
} from './records-digest';
import { summaryFromJson } from './summary-shape';

/** A long ledger read through its seal. */
export interface SealedLedger {
  /** Every key of the file; `iterations` is EMPTY: the old records were not parsed. */
  ledger: Ledger;
  /** What the engine needs of the old records (engine/records-summary.ts). */
  summary: RecordsSummary;
  /** The file's bytes; the old records are `bytes[start, end)`, one per line. */
  bytes: Buffer;
  start: number;
  end: number;
  /** SHA-256 state after the old records' bytes: an append hashes only what it adds. */
  recordsHash: Hash;
}

const RECORDS_OPEN = Buffer.from('\n  "iterations": [\n    ', 'utf8');
const RECORDS_CLOSE = Buffer.from('\n  ]', 'utf8');
const NEWLINE = 0x0a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

/** The ledger at `path` read through its seal, or null: then the caller reads it in full. */
export function readSealedLedger(path: string, session: string): SealedLedger | null {
  const bytes = readRegularFileBytes(path);
  if (bytes === undefined || bytes[0] !== OPEN_OBJECT) return null; // absent, unreadable, or a BOM
  const open = bytes.indexOf(RECORDS_OPEN);
  if (open < 0) return null;
  const start = open + RECORDS_OPEN.length;
  // A record line holds no raw newline (JSON.stringify escapes them), so the records end at the
  // first line that does not open one; the checks below prove that line is the list's end.
  const end = bytes.indexOf(RECORDS_CLOSE, start);
  if (end < 0 || end - start < DIGEST_MIN_BYTES || !isUtf8(bytes)) return null;
  const header = parseHeader(bytes, start, end);
  if (header === null || header.schema_version !== SCHEMA_VERSION) return null;
  const claimed = header[RECORDS_DIGEST_KEY];
  const summary = summaryFromJson(header[RECORDS_SUMMARY_KEY]);
  if (typeof claimed !== 'string' || summary === null) return null;
  const summaryText = JSON.stringify(header[RECORDS_SUMMARY_KEY]);
  if (ledgerShapeProblem(header, session, true) !== null) return null;
  // The header must be byte for byte what the layout writes for it: no repeated key (the parse
  // kept one), no other formatting, and the records exactly where the layout puts them.
  const frame = layoutFrame(header, true, { digest: claimed, summary: summaryText });
  if (!sameText(bytes, 0, start, frame.before) || !sameText(bytes, end, bytes.length, frame.after))
    return null;
  if (countRecordLines(bytes, start, end) !== summary.count) return null;
  const recordsHash = hashOfRecords([bytes.subarray(start, end)]);
  if (finishDigest(recordsHash.copy(), summaryText) !== claimed) return null;
  return { ledger: header as unknown as Ledger, summary, bytes, start, end, recordsHash };
}

/** The file with its records left out (`"iterations": []`), parsed; null when it is not an object. */
function parseHeader(bytes: Buffer, start: number, end: number): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8', 0, start) + bytes.toString('utf8', end));
  } catch {
    return null; // a syntax error, or nesting too deep: the full read says which
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function sameText(bytes: Buffer, from: number, to: number, text: string): boolean {
  return (
    to - from === Buffer.byteLength(text, 'utf8') &&
    bytes.subarray(from, to).equals(Buffer.from(text, 'utf8'))
  );
}

/**
 * How many lines `bytes[start, end)` holds when each is one object (`{…},`, the last `{…}`), else
 * -1. The seal proves the bytes are what was written; this proves what was written is records.
 */
function countRecordLines(bytes: Buffer, start: number, end: number): number {
  let count = 0;
  for (let at = start; ;) {
    if (bytes[at] !== OPEN_OBJECT) return -1;
    let lineEnd = bytes.indexOf(NEWLINE, at);
    if (lineEnd < 0 || lineEnd > end) lineEnd = end;
    count += 1;
    if (lineEnd === end) return bytes[end - 1] === CLOSE_OBJECT ? count : -1;
    if (bytes[lineEnd - 1] !== COMMA || bytes[lineEnd - 2] !== CLOSE_OBJECT) return -1;
    // The next line starts after the layout's four-space indent.
    if (lineEnd + 5 > end || bytes.readUInt32BE(lineEnd + 1) !== 0x20202020) return -1;
    at = lineEnd + 5;
  }
}

/**
 * Writes `next` — the engine's answer over `read.ledger`, whose `iterations` holds only the
 * records it appends — as the old records' bytes followed by the new ones, sealed with the
 * summary folded forward. Atomic, like every ledger write; call it under the ledger's lock.
 */
export function appendSealed(path: string, read: SealedLedger, next: Ledger): void {
  const added = next.iterations;
  const summary = read.summary;
  added.forEach((record: IterationRecord, i) => {
    // Only an append may take this path: anything else would drop or renumber old records.
    if (record?.n !== summary.count + 1)
      throw new Error(`internal: a sealed append got record ${i} numbered ${String(record?.n)}`);
    addRecord(summary, record);
  });
  const fresh = Buffer.from(
    added.map((record) => RECORD_SEPARATOR + JSON.stringify(record)).join(''),
    'utf8',
  );
  const summaryText = JSON.stringify(summary);
  const digest = finishDigest(read.recordsHash.update(fresh), summaryText);
  const frame = layoutFrame({ ...next, schema_version: SCHEMA_VERSION }, true, {
    digest,
    summary: summaryText,
  });
  writeFileAtomicSync(path, [frame.before, read.bytes.subarray(read.start, read.end), fresh, frame.after]);
  removeDeadWritersTemps(path);
}
