// The ledger file's text layout. Top-level keys are sorted and indented by 2, like the original
// engine's files; each iteration record sits on ONE line. That halves the file (a 10,000-record
// ledger is ~8 MB instead of ~16 MB) and so the parse, write and fsync that every `iterate`
// pays, and it lets an append reuse the text of the records already on disk instead of
// re-serialising them (records never change once written). Any JSON reader — the original
// engine's included — reads the file unchanged; grep and diff see one record per line.
//
// A file is laid out as a frame around its records (`before` + records + `after`), so a writer
// can hand the records over as bytes it already holds (ledger-sealed.ts) and the header alone is
// text.
import { summarizeRecords, type RecordsSummary } from '../engine/records-summary';
import type { IterationRecord, Ledger } from '../engine/types';
import { compactRecords } from './compact-records';
import { DIGEST_MIN_BYTES, RECORDS_DIGEST_KEY, RECORDS_SUMMARY_KEY, recordsDigest } from './records-digest';

/** Between two records of the list. */
export const RECORD_SEPARATOR = ',\n    ';

function indentBlock(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');
}

/** The text a previous read produced, so an append can reuse its records verbatim. */
export interface PreviousText {
  text: string;
  iterations: readonly IterationRecord[];
  /**
   * Where `iterations`' own text is in `text`, found by the reader's scan (json-scan.ts): null
   * when the records are not one per line or when the file was ambiguous. Reuse relies on it,
   * never on searching the text, so the copied text is provably the records that were parsed.
   */
  records: { start: number; end: number } | null;
  /**
   * The bytes `text` was decoded from, when it came from a file: records in another writer's
   * layout are then copied from them one per line (compact-records.ts) instead of serialised.
   */
  bytes?: Uint8Array;
}

/** The records' seal as written in the header (records-digest.ts). */
export interface RecordsSeal {
  digest: string;
  /** The summary as one line of JSON. */
  summary: string;
}

/** The file is `before` + the records (one per line, no brackets) + `after`. */
export interface LedgerFrame {
  before: string;
  after: string;
}

/**
 * The text around the records of `ledger` (its `iterations` value itself is not read): keys
 * sorted, trailing newline. With `hasRecords` false the list is written empty and `after` is
 * empty. A seal the ledger carried from its last read is never written back: `seal` replaces it.
 */
export function layoutFrame(
  ledger: Readonly<Record<string, unknown>>,
  hasRecords: boolean,
  seal: RecordsSeal | null,
): LedgerFrame {
  const fields: Record<string, unknown> = {
    ...ledger,
    [RECORDS_DIGEST_KEY]: seal?.digest,
    [RECORDS_SUMMARY_KEY]: seal?.summary,
  };
  const keys = Object.keys(fields).sort();
  let before = '{\n';
  let after: string | null = null;
  let first = true;
  for (const key of keys) {
    const value = fields[key];
    if (value === undefined) continue;
    const head = `${first ? '' : ',\n'}  ${JSON.stringify(key)}: `;
    first = false;
    if (key === 'iterations' && hasRecords) {
      before += `${head}[\n    `;
      after = '\n  ]';
      continue;
    }
    const text =
      key === 'iterations' ? '[]' : key === RECORDS_SUMMARY_KEY ? (value as string) : indentBlock(value);
    if (after === null) before += head + text;
    else after += head + text;
  }
  if (after === null) return { before: `${before}\n}\n`, after: '' };
  return { before, after: `${after}\n}\n` };
}

/**
 * The records' text from `previous` when `iterations` opens with exactly the records read then
 * (the same objects, in the same order: nothing was edited in between). Otherwise null: the
 * caller serialises every record.
 */
function reusableRecords(
  previous: PreviousText | undefined,
  iterations: readonly IterationRecord[],
): string | null {
  if (!previous || previous.records === null || !startsWith(iterations, previous.iterations)) return null;
  return previous.text.slice(previous.records.start, previous.records.end);
}

/** The records, one per line, without the list's brackets (what the records digest covers). */
function recordsText(iterations: readonly IterationRecord[], previous: PreviousText | undefined): string {
  const reused = reusableRecords(previous, iterations);
  const fresh = iterations.slice(reused === null ? 0 : (previous as PreviousText).iterations.length);
  const parts = fresh.map((record) => JSON.stringify(record));
  if (reused !== null) parts.unshift(reused);
  return parts.join(RECORD_SEPARATOR);
}

/**
 * The records as bytes, in as few parts as possible. Records read from a file in another
 * writer's layout (the original engine's first touch) are copied from its bytes, one per line,
 * when `iterations` opens with exactly the records read then — at every size, so every reader
 * writes the same bytes for the same file; any other record is serialised.
 */
function recordsBytes(
  iterations: readonly IterationRecord[],
  previous: PreviousText | undefined,
): Uint8Array[] {
  if (
    previous?.bytes !== undefined &&
    previous.records === null &&
    startsWith(iterations, previous.iterations)
  ) {
    const copied = compactRecords(previous.bytes, previous.iterations.length);
    if (copied !== null) {
      const fresh = iterations.slice(previous.iterations.length);
      if (fresh.length === 0) return [copied];
      const text = fresh.map((record) => RECORD_SEPARATOR + JSON.stringify(record)).join('');
      return [copied, Buffer.from(text, 'utf8')];
    }
  }
  return [Buffer.from(recordsText(iterations, previous), 'utf8')];
}

/** Whether `list` opens with exactly the objects of `head` (and `head` is not empty). */
function startsWith(list: readonly IterationRecord[], head: readonly IterationRecord[]): boolean {
  if (head.length === 0 || head.length > list.length) return false;
  for (let i = 0; i < head.length; i += 1) if (list[i] !== head[i]) return false;
  return true;
}

/**
 * The file for `ledger`, as parts to write in order. Records of DIGEST_MIN_BYTES or more get a
 * fresh seal (records-digest.ts), its summary folded from every record — or `summary`, when the
 * caller already folded exactly `ledger.iterations` (a full read's append: not folded twice). The
 * records are encoded once, and those bytes are both hashed and written.
 */
export function layoutLedgerParts(
  ledger: Ledger & Record<string, unknown>,
  previous?: PreviousText,
  summary?: RecordsSummary,
): (string | Uint8Array)[] {
  if (ledger.iterations.length === 0) return [layoutFrame(ledger, false, null).before];
  const records = recordsBytes(ledger.iterations, previous);
  let size = 0;
  for (const part of records) size += part.byteLength;
  let seal: RecordsSeal | null = null;
  if (size >= DIGEST_MIN_BYTES) {
    const summaryText = JSON.stringify(summary ?? summarizeRecords(ledger.iterations));
    seal = { digest: recordsDigest(records, summaryText), summary: summaryText };
  }
  const frame = layoutFrame(ledger, true, seal);
  return [frame.before, ...records, frame.after];
}

/** The file text for `ledger` (see layoutLedgerParts). */
export function layoutLedger(ledger: Ledger & Record<string, unknown>, previous?: PreviousText): string {
  const parts = layoutLedgerParts(ledger, previous);
  return parts
    .map((part) =>
      typeof part === 'string'
        ? part
        : Buffer.from(part.buffer, part.byteOffset, part.byteLength).toString('utf8'),
    )
    .join('');
}
