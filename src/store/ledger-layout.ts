// The ledger file's text layout. Top-level keys are sorted and indented by 2, like the original
// engine's files; each iteration record sits on ONE line. That halves the file (a 10,000-record
// ledger is ~8 MB instead of ~16 MB) and so the parse, write and fsync that every `iterate`
// pays, and it lets an append reuse the text of the records already on disk instead of
// re-serialising them (records never change once written). Any JSON reader — the original
// engine's included — reads the file unchanged; grep and diff see one record per line.
import type { IterationRecord, Ledger } from '../engine/types';

const ITERATIONS_OPEN = '\n  "iterations": [\n    ';
const ITERATIONS_CLOSE = '\n  ]';
const RECORD_SEPARATOR = ',\n    ';

/** The text a previous read produced, so an append can reuse its records verbatim. */
export interface PreviousText {
  text: string;
  iterations: readonly IterationRecord[];
}

function indentBlock(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');
}

/**
 * The records' text between `[\n    ` and `\n  ]` in `previous`, when that text is in this layout
 * and holds exactly the records that open `iterations` (same objects, same order). Otherwise
 * null: the caller serialises every record.
 */
function reusableRecords(
  previous: PreviousText | undefined,
  iterations: readonly IterationRecord[],
): string | null {
  if (!previous || previous.iterations.length === 0 || previous.iterations.length > iterations.length)
    return null;
  for (let i = 0; i < previous.iterations.length; i++)
    if (previous.iterations[i] !== iterations[i]) return null;
  const start = previous.text.indexOf(ITERATIONS_OPEN);
  if (start < 0) return null;
  const from = start + ITERATIONS_OPEN.length;
  // JSON strings cannot hold a raw newline, so the first "\n  ]" after the array opens is its end.
  const end = previous.text.indexOf(ITERATIONS_CLOSE, from);
  if (end < 0) return null;
  const span = previous.text.slice(from, end);
  // One line per record is what makes the span this layout; anything else (the original's
  // indented records, a hand edit) is re-serialised.
  let lines = 1;
  for (let at = span.indexOf('\n'); at >= 0; at = span.indexOf('\n', at + 1)) lines++;
  return lines === previous.iterations.length ? span : null;
}

function iterationsText(iterations: readonly IterationRecord[], previous: PreviousText | undefined): string {
  if (iterations.length === 0) return '[]';
  const reused = reusableRecords(previous, iterations);
  const fresh = iterations.slice(reused === null ? 0 : (previous as PreviousText).iterations.length);
  const parts = fresh.map((record) => JSON.stringify(record));
  if (reused !== null) parts.unshift(reused);
  return `[\n    ${parts.join(RECORD_SEPARATOR)}\n  ]`;
}

/** The file text for `ledger` (keys sorted at the top level, trailing newline). */
export function layoutLedger(ledger: Ledger & Record<string, unknown>, previous?: PreviousText): string {
  const keys = Object.keys(ledger).sort();
  const entries: string[] = [];
  for (const key of keys) {
    const value = ledger[key];
    if (value === undefined) continue;
    const text = key === 'iterations' ? iterationsText(ledger.iterations, previous) : indentBlock(value);
    entries.push(`  ${JSON.stringify(key)}: ${text}`);
  }
  return `{\n${entries.join(',\n')}\n}\n`;
}
