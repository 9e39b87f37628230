// The ledger file's text layout. Top-level keys are sorted and indented by 2, like the original
// engine's files; each iteration record sits on ONE line. That halves the file (a 10,000-record
// ledger is ~8 MB instead of ~16 MB) and so the parse, write and fsync that every `iterate`
// pays, and it lets an append reuse the text of the records already on disk instead of
// re-serialising them (records never change once written). Any JSON reader — the original
// engine's included — reads the file unchanged; grep and diff see one record per line.
import type { IterationRecord, Ledger } from '../engine/types';
import { DIGEST_MIN_CHARS, RECORDS_DIGEST_KEY, recordsDigest } from './records-digest';

const RECORD_SEPARATOR = ',\n    ';

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
  if (!previous || previous.records === null) return null;
  if (previous.iterations.length === 0 || previous.iterations.length > iterations.length) return null;
  for (let i = 0; i < previous.iterations.length; i++)
    if (previous.iterations[i] !== iterations[i]) return null;
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
 * The file text for `ledger` (keys sorted at the top level, trailing newline). A long records
 * list gets a fresh digest in the header (records-digest.ts); a digest the ledger carried from
 * its last read is never written back as it was.
 */
export function layoutLedger(ledger: Ledger & Record<string, unknown>, previous?: PreviousText): string {
  const records = ledger.iterations.length === 0 ? null : recordsText(ledger.iterations, previous);
  const digest = records !== null && records.length >= DIGEST_MIN_CHARS ? recordsDigest(records) : undefined;
  const withDigest: Record<string, unknown> = { ...ledger, [RECORDS_DIGEST_KEY]: digest };
  const keys = Object.keys(withDigest).sort();
  const entries: string[] = [];
  for (const key of keys) {
    const value = withDigest[key];
    if (value === undefined) continue;
    const text =
      key === 'iterations' ? (records === null ? '[]' : `[\n    ${records}\n  ]`) : indentBlock(value);
    entries.push(`  ${JSON.stringify(key)}: ${text}`);
  }
  return `{\n${entries.join(',\n')}\n}\n`;
}
