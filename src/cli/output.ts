// stdout is data, stderr diagnostics: one finding per stderr line, never a stack trace.
//
// Output goes straight to file descriptors 1 and 2 with writeSync: touching process.stdout
// builds Node's stream machinery (tty/net/stream modules), ~3 ms of a ~20 ms process start, for
// what is one write before exit.
import { writeSync } from 'node:fs';
import { sortKeysDeep } from '../engine/ledger-view';
import type { Finding } from '../engine/types';
import { sleepSync } from '../store/sleep';

/** Writes all of `text` to `fd`, riding out a non-blocking pipe that is momentarily full. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') sleepSync(1);
      else if (code === 'EPIPE')
        return; // the reader went away (e.g. `| head`): nothing left to tell
      else throw error;
    }
  }
}

/** The payload as the original prints it: sorted keys, indent 2. */
export function printJson(payload: unknown): void {
  writeAll(1, JSON.stringify(sortKeysDeep(payload), null, 2) + '\n');
}

export function printLine(line: string): void {
  writeAll(1, line + '\n');
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
  writeAll(2, text + '\n');
}
