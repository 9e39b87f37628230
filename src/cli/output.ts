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

/** One line per finding; newlines inside a message are flattened so each stays one line. */
export function printFindings(findings: (Finding | string)[]): void {
  const text = findings
    .map((f) => (typeof f === 'string' ? f : f.message).replace(/\r?\n/g, ' '))
    .map((line) => (line.length > 2000 ? line.slice(0, 2000) + '…' : line))
    .join('\n');
  process.stderr.write(text + '\n');
}
