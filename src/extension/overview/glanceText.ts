// A first look at a long ledger from two small pieces of its file: the head (every top-level key
// before the records: the contract, the epoch, …) and the tail (the newest records and the keys
// after them: status, the records' stored summary, …). A 100,000-iteration ledger is ~100 MB and
// reading all of it takes seconds; these pieces are a few hundred kilobytes. What comes out is a
// preview only: nothing is written from it, and the full read (which judges the whole file and
// shows the tree's reason when it is malformed) replaces it. Anything not laid out exactly as this
// store writes ledgers (ledger-layout.ts: sorted keys, one record per line) gives no glance, and
// the caller waits for the full read. Pure: bytes in, values out.
import { isUtf8 } from 'node:buffer';
import type { IterationRecord, Ledger } from '../../engine/types';
import type { RecordsSummary } from '../../engine/records-summary';
import { SCHEMA_VERSION } from '../../store/ledger-verdict';
import { summaryFromJson } from '../../store/summary-shape';

/** Where the records' list opens and closes in the store's layout. */
const RECORDS_OPEN = Buffer.from('\n  "iterations": [\n    ', 'utf8');
const RECORDS_CLOSE = Buffer.from('\n  ]', 'utf8');
/** A record's first line: `{` at the records' indent (deeper lines, in another writer's layout, are skipped). */
const LINE_START = Buffer.from('\n    {', 'utf8');

export interface Glance {
  /** The ledger's own keys with only the newest records in `iterations`. */
  ledger: Ledger;
  /** The records' summary stored in the header (unverified: the full read checks it), or null. */
  summary: RecordsSummary | null;
}

/** The head's text before the records, or null when the head does not reach them. */
function headBefore(head: Buffer): Buffer | null {
  if (head[0] !== 0x7b) return null; // `{` first: no byte-order mark, no leading space
  const at = head.indexOf(RECORDS_OPEN);
  return at < 0 ? null : head.subarray(0, at);
}

function utf8Text(bytes: Buffer): string | null {
  const text = bytes.toString('utf8');
  return text.includes('\uFFFD') && !isUtf8(bytes) ? null : text;
}

/**
 * The glance at a ledger file of `size` bytes from its first bytes (`head`) and its last
 * (`tail`), or null. `session` is the id the file is named after.
 */
export function glanceOf(head: Buffer, tail: Buffer, size: number, session: string): Glance | null {
  const before = headBefore(head);
  if (before === null) return null;
  const recordsStart = before.length + RECORDS_OPEN.length;
  const tailStart = size - tail.length;
  // The tail must begin inside the records, past their first line: else the file is short and
  // the full read is as quick.
  if (tailStart <= recordsStart) return null;
  const close = tail.lastIndexOf(RECORDS_CLOSE);
  if (close < 0) return null;
  const firstLine = tail.indexOf(LINE_START);
  if (firstLine < 0 || firstLine >= close) return null;
  const headText = utf8Text(before);
  const lines = utf8Text(tail.subarray(firstLine + LINE_START.length - 1, close));
  const afterText = utf8Text(tail.subarray(close + RECORDS_CLOSE.length));
  if (headText === null || lines === null || afterText === null) return null;
  let header: unknown;
  let records: unknown;
  try {
    header = JSON.parse(`${headText}\n  "iterations": []${afterText}`);
    // From the first record that starts inside the tail to the end of the list: whole records.
    records = JSON.parse(`[${lines}]`);
  } catch {
    return null;
  }
  if (!isLedgerHeader(header, session) || !isRecordList(records)) return null;
  const raw = header as unknown as Record<string, unknown>;
  const summary = summaryFromJson(raw.records_summary);
  return { ledger: { ...header, iterations: records }, summary };
}

function isLedgerHeader(value: unknown, session: string): value is Ledger {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const ledger = value as Record<string, unknown>;
  const version = ledger.schema_version;
  // A newer layout or a bad version is the full read's to report, with the tree's words.
  if (version !== undefined && (!Number.isSafeInteger(version) || (version as number) < 1)) return false;
  if (typeof version === 'number' && version > SCHEMA_VERSION) return false;
  const contract = ledger.contract;
  return (
    ledger.session === session &&
    typeof contract === 'object' &&
    contract !== null &&
    !Array.isArray(contract) &&
    typeof ledger.status === 'string'
  );
}

function isRecordList(value: unknown): value is IterationRecord[] {
  if (!Array.isArray(value) || value.length === 0) return false;
  for (const record of value) {
    if (typeof record !== 'object' || record === null || Array.isArray(record)) return false;
    const n = (record as { n?: unknown }).n;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) return false;
  }
  return true;
}
