// The fast path of `status` and `iterate` over a long ledger this store wrote: when the file is
// exactly this store's layout and its seal (records-digest.ts) matches, only the header is
// parsed, the old records are answered for by the sealed summary, and an append carries them
// into the next file as the bytes they are — no 7 MB parse, no 7 MB string, one hash pass.
//
// Anything this reader cannot prove returns null, and the caller takes the full read
// (ledger-file.ts), which reports what is wrong or reads what is right: a missing or unreadable
// file, a BOM, a header that is not UTF-8 or not byte for byte what the layout writes for its own
// parse (a hand edit, a repeated key, another writer's formatting), a newer or older schema, a
// header the shape check refuses, a summary not of the summary's shape, records that do not end
// in a record numbered as the summary counts, a seal that does not match (any change to a record
// or to the summary). Only `status` and `iterate` use it; every other command, the extension's
// reader and every write that is not a plain append take the full path.
import { isUtf8 } from 'node:buffer';
import type { Hash } from 'node:crypto';
import { isPlain } from '../engine/plain-pieces';
import { addRecord, type RecordsSummary } from '../engine/records-summary';
import type { IterationRecord, Ledger } from '../engine/types';
import {
  decodeLedgerBytes,
  loadLedgerBytes,
  readLedgerFile,
  SCHEMA_VERSION,
  writeLedgerParts,
  type LedgerRead,
} from './ledger-file';
import { layoutFrame, RECORD_SEPARATOR } from './ledger-layout';
import { ledgerShapeProblem } from './ledger-shape';
import { slicedEarly, slicedFromBytes, type SlicedLedger } from './ledger-sliced';
import { ledgerBytesSteps } from './read-steps';
import { runReadSync } from './read-sync';
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

export const RECORDS_OPEN = Buffer.from('\n  "iterations": [\n    ', 'utf8');
const RECORDS_CLOSE = Buffer.from('\n  ]', 'utf8');
const NEWLINE = 0x0a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const SPACE = 0x20;

/** The ledger at `path` read through its seal, or null: then the caller reads it in full. */
export function readSealedLedger(path: string, session: string): SealedLedger | null {
  const bytes = loadLedgerBytes(path);
  return Buffer.isBuffer(bytes) ? sealedFromBytes(bytes, session) : null;
}

/**
 * The file at `path` read once, in steps when it is another writer's long ledger (as read-steps.ts
 * reads it), and proved by its seal or record by record (ledger-sliced.ts; with `keep`, its
 * records laid out as this store writes them); else the full read's verdict — on the same bytes,
 * or, when the stepped read did not prove it, on the file read again in full. The one read of
 * readLedgerPreferSealed and readLedgerSummarised.
 */
function readProved(
  path: string,
  session: string,
  keep: boolean,
): { sealed: SealedLedger } | { sliced: SlicedLedger } | { read: LedgerRead } {
  const got = runReadSync(ledgerBytesSteps(path, slicedEarly(session, undefined, undefined, keep)));
  if ('early' in got) {
    // Not proved record by record: the full read of the file decides, as for any other file.
    return got.early !== null ? { sliced: got.early } : { read: readLedgerFile(path) };
  }
  if ('refused' in got) return { read: got.refused };
  const bytes = got.bytes;
  // Read whole: this store's sealed layout, or another writer's whose records begin past the
  // first step (a long header), which is still read record by record, from the whole bytes.
  const sealed = isPlain('seal') ? null : sealedFromBytes(bytes, session);
  if (sealed !== null) return { sealed };
  const sliced = slicedFromBytes(bytes, session, keep);
  return sliced !== null ? { sliced } : { read: decodeLedgerBytes(bytes, path) };
}

/**
 * The file at `path` read once, for an append: through its seal when it proves one, else record
 * by record when it is another writer's long ledger (its records then arrive laid out as this
 * store writes them, and the append seals them), else the full read's verdict (readProved).
 */
export function readLedgerPreferSealed(
  path: string,
  session: string,
): { sealed: SealedLedger; read?: undefined } | { sealed?: undefined; read: LedgerRead } {
  const proved = readProved(path, session, true);
  if ('read' in proved) return { read: proved.read };
  if ('sealed' in proved) return { sealed: proved.sealed };
  const { ledger, summary, records } = proved.sliced;
  if (records === undefined) throw new Error('internal: records read for a rewrite were not kept');
  return {
    sealed: {
      ledger,
      summary,
      bytes: records,
      start: 0,
      end: records.length,
      recordsHash: hashOfRecords([records]),
    },
  };
}

/**
 * The file at `path` read once, for a reader that asks only what the records' summary answers
 * (`status`): through its seal, or record by record (ledger-sliced.ts), when either proves the
 * file; else the full read's verdict (readProved).
 */
export function readLedgerSummarised(
  path: string,
  session: string,
):
  | { summarised: { ledger: Ledger; summary: RecordsSummary }; read?: undefined }
  | { summarised?: undefined; read: LedgerRead } {
  const proved = readProved(path, session, false);
  if ('read' in proved) return { read: proved.read };
  return { summarised: 'sealed' in proved ? proved.sealed : proved.sliced };
}

function sealedFromBytes(bytes: Buffer, session: string): SealedLedger | null {
  if (bytes[0] !== OPEN_OBJECT) return null; // empty, or a BOM
  const open = bytes.indexOf(RECORDS_OPEN);
  if (open < 0) return null;
  const start = open + RECORDS_OPEN.length;
  if (!firstRecordOnOneLine(bytes, start)) return null;
  const end = recordsEnd(bytes, start);
  if (end < 0 || end - start < DIGEST_MIN_BYTES) return null;
  const frame = sealedFrame(bytes.subarray(0, start), bytes.subarray(end), session);
  if (frame === null) return null;
  const { header, summary, summaryText, claimed } = frame;
  if (!endsWithRecord(bytes, start, end, summary.count)) return null;
  const recordsHash = hashOfRecords([bytes.subarray(start, end)]);
  if (finishDigest(recordsHash.copy(), summaryText) !== claimed) return null;
  return { ledger: header as unknown as Ledger, summary, bytes, start, end, recordsHash };
}

/** A sealed ledger's header: every key but the records, and the seal it claims. */
export interface SealedFrame {
  header: Record<string, unknown>;
  summary: RecordsSummary;
  /** The summary as the digest covers it. */
  summaryText: string;
  /** The digest the header claims for the records. */
  claimed: string;
}

/**
 * The header of a ledger file whose bytes are `head` (up to where the records begin, just past
 * `"iterations": [` and its line break) and `tail` (from the records' closing line break to the
 * end), or null unless it is exactly what this store writes with a seal: UTF-8, this schema
 * version, a digest and a summary of the summary's shape, a header the shape check takes, and
 * byte for byte the layout's text for its own parse (no repeated key, no other formatting).
 * The records between are not looked at: the caller hashes them against `claimed`.
 */
export function sealedFrame(head: Buffer, tail: Buffer, session: string): SealedFrame | null {
  if (head[0] !== OPEN_OBJECT || !head.subarray(head.length - RECORDS_OPEN.length).equals(RECORDS_OPEN))
    return null;
  // Only the header is decoded, so only it must be UTF-8 (a stray byte would decode to U+FFFD
  // and pass the comparison below as text); the records are hashed as the bytes they are.
  if (!isUtf8(head) || !isUtf8(tail)) return null;
  const before = head.toString('utf8');
  const after = tail.toString('utf8');
  const header = parseHeader(before + after);
  if (header === null || header.schema_version !== SCHEMA_VERSION) return null;
  const claimed = header[RECORDS_DIGEST_KEY];
  const summary = summaryFromJson(header[RECORDS_SUMMARY_KEY]);
  if (typeof claimed !== 'string' || summary === null) return null;
  const summaryText = JSON.stringify(header[RECORDS_SUMMARY_KEY]);
  if (ledgerShapeProblem(header, session, true) !== null) return null;
  const frame = layoutFrame(header, true, { digest: claimed, summary: summaryText });
  if (frame.before !== before || frame.after !== after) return null;
  return { header, summary, summaryText, claimed };
}

/**
 * Whether the first record is one line, as this store writes every record (a record's text
 * holds no raw line break). Another writer's pretty-printed records (the original engine's
 * first touch) are turned away here, at their first line, before recordsEnd searches the whole
 * file backwards for an end it cannot find.
 */
function firstRecordOnOneLine(bytes: Buffer, start: number): boolean {
  if (bytes[start] !== OPEN_OBJECT) return false;
  const lineEnd = bytes.indexOf(NEWLINE, start);
  if (lineEnd < 0) return false;
  const last = bytes[lineEnd - 1];
  return last === CLOSE_OBJECT || (last === COMMA && bytes[lineEnd - 2] === CLOSE_OBJECT);
}

/**
 * Where the records end (the index of their closing `\n  ]` in `bytes`, -1 if not found): the last `\n  ]` right after a one-line record's closing brace (a
 * record line holds no blank outside its strings; an object the header pretty-prints after the
 * records has its brace on a line of its own, except an empty one: a top-level list after the
 * records that ends in `{}` ends `{}\n  ]` too, and no record is empty). Searched from the end,
 * as the header after the records is small and the records are not (a forward search crossed
 * 70 MB at 100,000 records). A wrong guess cannot pass the checks that follow; it only sends the
 * read to the full path.
 */
export function recordsEnd(bytes: Buffer, start: number): number {
  let at = bytes.lastIndexOf(RECORDS_CLOSE);
  while (
    at > start &&
    !(bytes[at - 1] === CLOSE_OBJECT && bytes[at - 2] !== SPACE && bytes[at - 2] !== OPEN_OBJECT)
  )
    at = bytes.lastIndexOf(RECORDS_CLOSE, at - 1);
  return at > start ? at : -1;
}

/** The file with its records left out (`"iterations": []`), parsed; null when it is not an object. */
function parseHeader(text: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null; // a syntax error, or nesting too deep: the full read says which
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/**
 * Whether the records' region ends the way this store writes it: the first line opens an object
 * and the last line is one object numbered `count`. The seal already proves the bytes are the
 * ones that were written with this summary; this is a cheap guard (no scan of every line, which
 * measured 3–30 ms on 10,000 records) that a seal someone recomputed over other text is not
 * believed blindly. Anything else about the records is the full path's to check.
 */
function endsWithRecord(bytes: Buffer, start: number, end: number, count: number): boolean {
  if (bytes[start] !== OPEN_OBJECT || bytes[end - 1] !== CLOSE_OBJECT) return false;
  const newline = bytes.lastIndexOf(NEWLINE, end - 1);
  let lineStart = start;
  if (newline >= start) {
    if (bytes[newline - 1] !== COMMA || bytes[newline - 2] !== CLOSE_OBJECT) return false;
    if (newline + 5 > end || bytes.readUInt32BE(newline + 1) !== 0x20202020) return false;
    lineStart = newline + 5;
  } else if (count !== 1) return false;
  try {
    const last = JSON.parse(bytes.toString('utf8', lineStart, end)) as unknown;
    return typeof last === 'object' && last !== null && (last as { n?: unknown }).n === count;
  } catch {
    return false;
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
  writeLedgerParts(path, [frame.before, read.bytes.subarray(read.start, read.end), fresh, frame.after]);
}
