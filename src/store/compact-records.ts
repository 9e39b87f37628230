// The iteration records of a ledger another writer laid out (the original engine's
// `json.dumps(indent=2, sort_keys=True)`, a hand edit), rewritten one per line as this store
// lays them out, straight from the file's bytes: every blank outside a string is dropped and
// the list's elements are put on lines of their own. Everything else is copied as it is, so
// each record's text is its value exactly as the file wrote it (key order, escapes, number
// spelling) — what JSON.parse read from it. Pure.
//
// Why: on a first touch `iterate` rewrites the whole ledger, and serialising 10,000 parsed
// records again (JSON.stringify, then encoding the string) cost more than parsing them. This
// copies bytes in one pass.
//
// Only call it on bytes JSON.parse accepted and the read's checks passed (no repeated key, the
// records are objects): it does not check the syntax again. It finds the records' list by
// reading the top-level object's keys, not by a search, and returns null for anything it does
// not recognise (then the caller serialises the records).

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

/** Between two records, as ledger-layout.ts writes it. */
const SEPARATOR = Buffer.from(',\n    ', 'latin1');
const ITERATIONS = Buffer.from('iterations', 'latin1');

function isBlank(code: number | undefined): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/**
 * The index of the quote that closes the string opened at `open`, or the end of `bytes` when the
 * string is not closed (bytes no parse has accepted yet: ledger-sliced.ts looks before it parses).
 */
function stringEnd(bytes: Uint8Array, open: number): number {
  let at = open + 1;
  while (at < bytes.length) {
    const code = bytes[at] as number;
    if (code === QUOTE) return at;
    at += code === BACKSLASH ? 2 : 1;
  }
  return bytes.length;
}

/**
 * Where the top-level `iterations` list opens (its `[`), or -1. The top-level object's members
 * are read in order (nested values are skipped by bracket depth), so a key named `iterations`
 * inside a nested object, or inside a string, is never taken for it.
 */
export function iterationsOpen(bytes: Uint8Array): number {
  let depth = 0;
  for (let at = 0; at < bytes.length; at += 1) {
    const code = bytes[at];
    if (code === QUOTE) {
      const close = stringEnd(bytes, at);
      if (depth === 1) {
        let next = close + 1;
        while (isBlank(bytes[next])) next += 1;
        if (bytes[next] === COLON) {
          // A member's key: is it `iterations`, written without escapes?
          if (close - at - 1 === ITERATIONS.length && ITERATIONS.equals(bytes.subarray(at + 1, close))) {
            next += 1;
            while (isBlank(bytes[next])) next += 1;
            return bytes[next] === OPEN_LIST ? next : -1;
          }
        }
      }
      at = close;
    } else if (code === OPEN_OBJECT || code === OPEN_LIST) {
      depth += 1;
    } else if (code === CLOSE_OBJECT || code === CLOSE_LIST) {
      depth -= 1;
    }
  }
  return -1;
}

/**
 * The elements of the top-level `iterations` list of `bytes` (a whole ledger file, without a
 * byte-order mark), one per line without blanks, joined as ledger-layout.ts joins records; null
 * when the list is not found or does not hold exactly `count` objects.
 */
export function compactRecords(bytes: Uint8Array, count: number): Buffer | null {
  const open = iterationsOpen(bytes);
  if (open < 0 || count === 0) return null;
  // Never longer than the text it comes from, plus the separators' indents.
  const out = Buffer.allocUnsafe(bytes.length - open + count * SEPARATOR.length);
  const end = compactInto(bytes, open, count, out, 0);
  return end < 0 ? null : out.subarray(0, end);
}

/**
 * As compactRecords, but written over `bytes` itself, from just after the list's `[`: no second
 * buffer, whose fresh pages (7 MB for 10,000 records) cost more on this machine than the copy.
 * Only for bytes the record-by-record read (ledger-sliced.ts) proved in the original engine's
 * layout, where every record opens on a line of its own after at least as many blanks as a
 * separator adds, so the writing never overtakes the reading. `bytes` then hold the records from
 * the returned view's start on; what lay before it is untouched.
 *
 * Null, as compactRecords, or when the records come out shorter than `restorable` bytes; then
 * `bytes` are put back as they were (their first `restorable` bytes past the `[` were saved
 * first), so the caller can still read them in full. Throws when they cannot be put back (input
 * the read did not prove).
 */
export function compactRecordsOver(bytes: Buffer, count: number, restorable: number): Buffer | null {
  const open = iterationsOpen(bytes);
  if (open < 0 || count === 0) return null;
  const base = open + 1;
  const saved = Buffer.from(bytes.subarray(base, base + restorable));
  const end = compactInto(bytes, open, count, bytes, base);
  if (end >= 0 && end - base >= restorable) return bytes.subarray(base, end);
  if (end < -1 - base - saved.length)
    throw new Error('internal: records compacted over their own bytes were not as the read proved');
  saved.copy(bytes, base);
  return null;
}

/**
 * Writes the records of the list opening at `open` into `out` from `start` (compactRecords);
 * the end of what it wrote, or, when the list is not `count` objects, -1 - that end. When `out`
 * is `bytes` it stops (as not recognised) rather than write over bytes it has not read yet.
 */
function compactInto(bytes: Uint8Array, open: number, count: number, out: Uint8Array, start: number): number {
  const over = out === bytes;
  let length = start;
  let depth = 0; // inside the list: 0 between elements
  let elements = 0;
  for (let at = open + 1; at < bytes.length; at += 1) {
    let code = bytes[at] as number;
    if (code === QUOTE) {
      // A string is copied as it is, escapes and all, up to its closing quote.
      out[length++] = code;
      for (;;) {
        at += 1;
        code = bytes[at] as number;
        out[length++] = code;
        if (code === QUOTE) break;
        if (code === BACKSLASH) out[length++] = bytes[++at] as number;
      }
      continue;
    }
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) continue;
    if (depth === 0) {
      if (code === CLOSE_LIST) {
        // The list's end: every element was an object (each opened with `{` at depth 0).
        return elements === count ? length : -1 - length;
      }
      if (code === COMMA) {
        if (over && length + SEPARATOR.length > at + 1) return -1 - length;
        for (let i = 0; i < SEPARATOR.length; i += 1) out[length++] = SEPARATOR[i] as number;
        continue;
      }
      if (code !== OPEN_OBJECT) return -1 - length; // a record that is not an object: not ours to lay out
      elements += 1;
    }
    if (code === OPEN_OBJECT || code === OPEN_LIST) depth += 1;
    else if (code === CLOSE_OBJECT || code === CLOSE_LIST) depth -= 1;
    out[length++] = code;
  }
  return -1 - length;
}
