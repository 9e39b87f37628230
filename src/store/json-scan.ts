// What JSON.parse does not tell: whether an object held the same key twice (it silently keeps the
// last one), and where exactly the iteration records' text sits in the file. Both are worked out
// on text that JSON.parse has already accepted, so nothing here reports a syntax error. Pure.
//
// Why: a ledger with a duplicate key is ambiguous (Python's json, the original engine, keeps
// the last; a streaming reader keeps the first), and an append that copies the records' text
// must copy exactly the records that were parsed. Both checks are built to cost a fraction of
// JSON.parse on a 10,000-record ledger: a full tokenizing pass in JS costs more than the parse.

import {
  QUOTE,
  BACKSLASH,
  OPEN_OBJECT,
  CLOSE_OBJECT,
  OPEN_LIST,
  CLOSE_LIST,
  COMMA,
  COLON,
} from './json-bytes';
import { keysProvedUnique } from './json-keys';

/** `text.slice(start, end)` is exactly the elements of the top-level `iterations` list. */
export interface RecordsSpan {
  start: number;
  end: number;
}

export interface LedgerScan {
  /** Why the text is ambiguous (a key that appears twice in one object), or null. */
  duplicate: string | null;
  /** Where the records are, when each sits on one line of its own; else null (re-serialise). */
  records: RecordsSpan | null;
}

/** The index of the quote that closes the string opened at `open`. */
function stringEnd(text: string, open: number): number {
  for (let at = open + 1; ; at += 1) {
    at = text.indexOf('"', at);
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return at;
  }
}

/** The key's value as JSON.parse decodes it (escapes are rare in keys: skip the decode then). */
function keyText(text: string, open: number, close: number): string {
  const raw = text.slice(open + 1, close);
  return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
}

/**
 * Scans `text`, which JSON.parse accepted and turned into `parsed` (a ledger object). `proven`
 * is the records' span when their digest matched (records-digest.ts): those records were
 * checked for repeated keys before they were written, so only the text around them is counted.
 * `bytes`, when given, are what `text` was decoded from: the WebAssembly pass (json-keys.ts)
 * may prove from them that no key repeats, and then nothing here counts keys at all.
 */
export function scanLedgerJson(
  text: string,
  parsed: Record<string, unknown>,
  proven: RecordsSpan | null = null,
  bytes?: Uint8Array,
): LedgerScan {
  if (
    proven === null &&
    bytes !== undefined &&
    bytes.length >= KEYS_PROOF_FROM_BYTES &&
    keysProvedUnique(bytes)
  )
    return { duplicate: null, records: locateRecords(text, parsed) };
  const colons =
    proven === null
      ? colonsAfterQuotes(text, 0, text.length)
      : colonsAfterQuotes(text, 0, proven.start) + colonsAfterQuotes(text, proven.end, text.length);
  const keys = proven === null ? countKeys(parsed) : countKeysBesideRecords(parsed);
  if (colons !== keys) {
    const duplicate = findDuplicate(text);
    if (duplicate !== null) return { duplicate, records: null };
  }
  return { duplicate: null, records: proven ?? locateRecords(text, parsed) };
}

/**
 * Below this size the JavaScript count is as quick as compiling and starting the WebAssembly
 * pass, which a short ledger (every command on a young loop) would pay for nothing. Measured in
 * instructions (callgrind, `status` on the original engine's ledgers): at 1 MiB the two are
 * level (within 2%, either way), at 2 MiB the WebAssembly pass saves from 1% (full read) to 17%
 * (record by record), at 5 MiB 22%.
 */
export const KEYS_PROOF_FROM_BYTES = 1536 * 1024;

/**
 * False when `text`, which JSON.parse turned into `parsed`, provably holds no object with a
 * repeated key; true when that is not proved (then the exact check over the whole file decides).
 */
export function mayRepeatKeys(text: string, parsed: object): boolean {
  return colonsAfterQuotes(text, 0, text.length) !== countKeys(parsed);
}

/** countKeys of the ledger without the records' own keys (the `iterations` key itself counts). */
function countKeysBesideRecords(parsed: Record<string, unknown>): number {
  let count = 0;
  for (const key in parsed) {
    count += 1;
    const item = parsed[key];
    if (key !== 'iterations' && typeof item === 'object' && item !== null) count += countKeys(item);
  }
  return count;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/**
 * An upper bound of the members written in `text`, found with native indexOf: every ':' whose
 * previous non-blank character is an unescaped '"'. Each key's colon is such a colon; so is a
 * colon opening a string value (`": x"`), which only makes the bound loose. JSON.parse keeps at
 * most one key per member, so when this bound equals the keys it kept, no key repeats; when it
 * does not, the exact (slow) pass decides. Only colons in [from, to) are counted.
 */
function colonsAfterQuotes(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf(':', from); at >= 0 && at < to; at = text.indexOf(':', at + 1)) {
    let before = at - 1;
    while (isSpace(text.charCodeAt(before))) before -= 1;
    if (text.charCodeAt(before) !== QUOTE) continue;
    let slashes = 0;
    while (text.charCodeAt(before - 1 - slashes) === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) count += 1;
  }
  return count;
}

/** Every key of every object in `value` (for…in: no key list is allocated per object). */
function countKeys(value: object): number {
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value)
      if (typeof item === 'object' && item !== null) count += countKeys(item as object);
    return count;
  }
  for (const key in value) {
    count += 1;
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null) count += countKeys(item);
  }
  return count;
}

const ITERATIONS_OPEN = '\n  "iterations": [\n    ';
const RECORD_BREAK = '\n    ';
const ITERATIONS_CLOSE = '\n  ]';

/**
 * The records' span in the layout ledger-layout.ts writes (one record per line), proved rather
 * than assumed. A candidate is found by the layout's own markers; then the text before it and
 * the text after it are tokenized (they are small: the contract, epochs…, not the records):
 * before must end just inside the top-level object's `iterations` list, and after, started at
 * that depth, must close exactly the list and the top-level object. A candidate whose end is
 * really inside a record (or past the list) leaves the brackets unbalanced or hides a top-level
 * key, which the key count catches. So the span is exactly the list's elements, as parsed.
 */
export function locateRecords(text: string, parsed: Record<string, unknown>): RecordsSpan | null {
  const records = parsed.iterations;
  if (!Array.isArray(records) || records.length === 0) return null;
  const open = text.indexOf(ITERATIONS_OPEN);
  if (open < 0) return null;
  const start = open + ITERATIONS_OPEN.length;
  let end = start;
  for (let n = 1; ; n += 1) {
    const lineEnd = text.indexOf('\n', end);
    if (lineEnd < 0) return null;
    const last = n === records.length;
    // Each line holds one object: `{…},` or, for the last, `{…}`.
    if (text.charCodeAt(end) !== OPEN_OBJECT) return null;
    if (text.charCodeAt(lineEnd - (last ? 1 : 2)) !== CLOSE_OBJECT) return null;
    if (last) {
      if (!text.startsWith(ITERATIONS_CLOSE, lineEnd)) return null;
      end = lineEnd;
      break;
    }
    if (text.charCodeAt(lineEnd - 1) !== COMMA || !text.startsWith(RECORD_BREAK, lineEnd)) return null;
    end = lineEnd + RECORD_BREAK.length;
  }
  const before = tokenize(text, 0, start, 0);
  if (
    before === null ||
    before.depth !== 2 ||
    before.lastOpen !== start - RECORD_BREAK.length - 1 ||
    before.lastKey !== 'iterations'
  )
    return null;
  const after = tokenize(text, end, text.length, 2);
  if (after === null || after.depth !== 0) return null;
  const topKeys = Object.keys(parsed).length;
  return before.topKeys + after.topKeys === topKeys ? { start, end } : null;
}

interface Tokenized {
  depth: number;
  /** Members seen at depth 1 (the top-level object's keys). */
  topKeys: number;
  /** The last depth-1 key seen, and where the last container opened. */
  lastKey: string | null;
  lastOpen: number;
}

/** Brackets and depth-1 keys of text[from, to), starting outside any string at `depth`. */
function tokenize(text: string, from: number, to: number, depth: number): Tokenized | null {
  let topKeys = 0;
  let lastKey: string | null = null;
  let lastOpen = -1;
  for (let i = from; i < to; i += 1) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      const close = stringEnd(text, i);
      if (close >= to) return null;
      if (depth === 1) {
        let next = close + 1;
        while (isSpace(text.charCodeAt(next))) next += 1;
        if (text.charCodeAt(next) === COLON) {
          topKeys += 1;
          lastKey = keyText(text, i, close);
        }
      }
      i = close;
    } else if (code === OPEN_OBJECT || code === OPEN_LIST) {
      depth += 1;
      lastOpen = i;
    } else if (code === CLOSE_OBJECT || code === CLOSE_LIST) {
      depth -= 1;
      if (depth < 0) return null;
    }
  }
  return { depth, topKeys, lastKey, lastOpen };
}

interface Frame {
  keys: Set<string> | null; // null for a list
  key: string; // the member being read (objects)
  index: number; // the element being read (lists)
}

/** The first key that repeats within one object, named with the path of that object. */
function findDuplicate(text: string): string | null {
  const frames: Frame[] = [];
  let keyNext = false;
  for (let i = 0; i < text.length;) {
    const quote = text.indexOf('"', i);
    const stop = quote < 0 ? text.length : quote;
    for (let j = i; j < stop; j += 1) {
      const code = text.charCodeAt(j);
      if (code === OPEN_OBJECT) {
        frames.push({ keys: new Set(), key: '', index: 0 });
        keyNext = true;
      } else if (code === OPEN_LIST) {
        frames.push({ keys: null, key: '', index: 0 });
        keyNext = false;
      } else if (code === CLOSE_OBJECT || code === CLOSE_LIST) {
        frames.pop();
        keyNext = false;
      } else if (code === COMMA) {
        const top = frames[frames.length - 1] as Frame;
        if (top.keys !== null) keyNext = true;
        else top.index += 1;
      }
    }
    if (quote < 0) break;
    const close = stringEnd(text, quote);
    if (keyNext) {
      keyNext = false;
      const top = frames[frames.length - 1] as Frame;
      const key = keyText(text, quote, close);
      if (top.keys?.has(key)) {
        const where = frames.length === 1 ? 'at the top level' : `in ${jsonPath(frames.slice(0, -1))}`;
        return `has the key ${quoteKey(key)} twice ${where}; which one counts is ambiguous`;
      }
      top.keys?.add(key);
      top.key = key;
    }
    i = close + 1;
  }
  return null;
}

/** `iterations[3].evaluation`: the members and elements being read in each enclosing frame. */
function jsonPath(frames: Frame[]): string {
  let path = '';
  for (const frame of frames)
    path += frame.keys === null ? `[${frame.index}]` : pathKey(frame.key, path === '');
  return path;
}

/** One step of a JSON path: `.name` (bare `name` first) for plain names, else `["…"]`. */
export function pathKey(key: string, first: boolean): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return first ? key : `.${key}`;
  return `[${quoteKey(key)}]`;
}

/** A key as JSON (control characters escaped), shortened when long. */
export function quoteKey(key: string): string {
  return key.length <= 60 ? JSON.stringify(key) : `${JSON.stringify(key.slice(0, 60))}…`;
}
