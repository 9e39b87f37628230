// stdout is data, stderr diagnostics: one finding per stderr line, never a stack trace.
import type { Finding } from '../engine/types';
import { sortKeysDeep } from '../engine/ledger-view';

/** The payload as the original prints it: sorted keys, indent 2. */
export function printJson(payload: unknown): void {
  process.stdout.write(JSON.stringify(sortKeysDeep(payload), null, 2) + '\n');
}

export function printLine(line: string): void {
  process.stdout.write(line + '\n');
}

/** How much of a huge finding is kept from each end: what was given, and why it was refused. */
const KEEP_HEAD = 1200;
const KEEP_TAIL = 600;

/**
 * A finding that quotes a huge argument (a 120 KiB flag value or path) is shortened in the
 * middle, not at the end: the reason ("… over the limit", "(choose from …)") comes last.
 */
function shorten(line: string): string {
  if (line.length <= KEEP_HEAD + KEEP_TAIL) return line;
  const omitted = line.length - KEEP_HEAD - KEEP_TAIL;
  return `${line.slice(0, KEEP_HEAD)}…[${omitted} characters omitted]…${line.slice(-KEEP_TAIL)}`;
}

/** One line per finding; newlines inside a message are flattened so each stays one line. */
export function printFindings(findings: (Finding | string)[]): void {
  const text = findings
    .map((f) => (typeof f === 'string' ? f : f.message).replace(/\r?\n/g, ' '))
    .map(shorten)
    .join('\n');
  process.stderr.write(text + '\n');
}
