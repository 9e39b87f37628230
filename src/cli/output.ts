// stdout is data, stderr diagnostics: one finding per stderr line, never a stack trace.
//
// Output goes straight to file descriptors 1 and 2 with writeSync: touching process.stdout
// builds Node's stream machinery (tty/net/stream modules), ~3 ms of a ~20 ms process start, for
// what is one write before exit.
import { writeSync } from 'node:fs';
import { isChunkedText } from '../engine/chunked-text';
import { sortKeysDeep } from '../engine/ledger-view';
import type { Finding } from '../engine/types';
import { sleepSync } from '../store/sleep';
import { writeJson } from './print-json';

const OUTPUT_ERROR = Symbol.for('loop-ledger.OutputError');

/** stdout or stderr refused a write (`> /dev/full`, a closed terminal): main reports it, exit 74. */
export class OutputError extends Error {
  readonly [OUTPUT_ERROR] = true;

  constructor(
    readonly stream: 'stdout' | 'stderr',
    readonly error: NodeJS.ErrnoException,
  ) {
    super(`cannot write to ${stream}`);
    this.name = 'OutputError';
  }

  /** By brand, as UsageError: `run` and `repeat` throw it from bundles of their own (usage-error.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as { [OUTPUT_ERROR]?: unknown })[OUTPUT_ERROR] === true
    );
  }
}

/** Set once a reader went away: the rest of a chunked output has nowhere to go. */
const closed = new Set<number>();

/** Writes all of `bytes` to `fd`, riding out a non-blocking pipe that is momentarily full. */
function writeBytes(fd: number, bytes: Buffer): void {
  if (closed.has(fd)) return;
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') sleepSync(1);
      else if (code === 'EPIPE') {
        closed.add(fd); // the reader went away (e.g. `| head`): nothing left to tell
        return;
      } else throw new OutputError(fd === 1 ? 'stdout' : 'stderr', error as NodeJS.ErrnoException);
    }
  }
}

function writeAll(fd: number, text: string): void {
  writeBytes(fd, Buffer.from(text, 'utf8'));
}

/** Up to this many characters of strings (and items), a payload is printed in one go. */
const SMALL_PAYLOAD = 64 * 1024;

/** Deeper than this, a payload takes the chunked path (which is what it took before). */
const SMALL_DEPTH = 64;

/**
 * What is left of `budget` after the characters of strings, items and keys in `value` (≤ 0:
 * not small). Walked only that far, so a 20 MiB brief or a 10,000-action status is told apart
 * at once.
 */
function budgetLeft(value: unknown, budget: number, depth: number): number {
  if (typeof value === 'string') return budget - value.length;
  if (value === null || typeof value !== 'object') return budget - 1;
  // A chunked text (a big diff kept as bytes) is never small; neither is anything but plain data.
  if (depth > SMALL_DEPTH || isChunkedText(value) || ArrayBuffer.isView(value)) return 0;
  const items = Array.isArray(value) ? value : Object.values(value as object);
  let left = budget - items.length;
  if (!Array.isArray(value)) for (const key of Object.keys(value as object)) left -= key.length;
  for (let i = 0; i < items.length && left > 0; i += 1) left = budgetLeft(items[i], left, depth + 1);
  return left;
}

/**
 * The payload as the original prints it: sorted keys, indent 2. A small one is
 * `JSON.stringify(sortKeysDeep(payload), null, 2)` written at once (native, and already compiled);
 * a large one the same text written in chunks (print-json.ts), never one big string.
 */
export function printJson(payload: unknown): void {
  if (budgetLeft(payload, SMALL_PAYLOAD, 0) > 0) {
    writeAll(1, `${JSON.stringify(sortKeysDeep(payload), null, 2)}\n`);
    return;
  }
  writeJson(payload, (bytes) => writeBytes(1, bytes));
}

/**
 * Control characters a terminal acts on: C0 (ESC starts a colour or cursor sequence, a lone CR
 * rewinds the line so the next text overwrites it), DEL, C1 (0x9B is a one-byte CSI), and the
 * bidirectional overrides and isolates that reorder what is shown (a "Trojan source" line).
 * A user's value echoed in a message must show them, not obey them.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- as above, newlines and tabs included
const CONTROLS_AND_LINES = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NAMED = new Map([
  ['\t', '\\t'],
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\x1b', '\\e'],
]);

function visibleChar(c: string): string {
  const named = NAMED.get(c);
  if (named !== undefined) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control character spelled out (`\e`, `\r`, `\x9b`, `\u202e`…), newlines and tabs too. */
export function visible(text: string): string {
  return text.replace(CONTROLS_AND_LINES, visibleChar);
}

/**
 * A human stdout line: control characters spelled out, but the newlines and tabs that lay out
 * `list` and `--help` kept (values a user typed into such lines are made `visible` first).
 */
export function printLine(line: string): void {
  writeAll(1, line.replace(CONTROLS, visibleChar) + '\n');
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

/**
 * One line per finding: newlines inside a message are flattened so each stays one line, and
 * every other control character (a lone CR, ESC…) is spelled out so no value can forge a line.
 */
export function printFindings(findings: (Finding | string)[]): void {
  const text = findings
    .map((f) =>
      (typeof f === 'string' ? f : f.message).replace(/\r?\n/g, ' ').replace(CONTROLS_AND_LINES, visibleChar),
    )
    .map(shorten)
    .join('\n');
  writeAll(2, text + '\n');
}
