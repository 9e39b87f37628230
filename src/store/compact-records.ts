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
  let length = 0;
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
        return elements === count ? out.subarray(0, length) : null;
      }
      if (code === COMMA) {
        length += SEPARATOR.copy(out, length);
        continue;
      }
      if (code !== OPEN_OBJECT) return null; // a record that is not an object: not ours to lay out
      elements += 1;
    }
    if (code === OPEN_OBJECT || code === OPEN_LIST) depth += 1;
    else if (code === CLOSE_OBJECT || code === CLOSE_LIST) depth -= 1;
    out[length++] = code;
  }
  return null;
}

/**
 * One record, `bytes[from, to)` (an object JSON.parse accepted from exactly those bytes), written
 * into `out` from `at` as compactRecords writes it: every blank outside a string dropped, the
 * rest copied as it is. Returns where it ended. For a reader that holds one record at a time
 * (ledger-sliced.ts) and writes the separators itself.
 */
export function compactRecordInto(
  bytes: Uint8Array,
  from: number,
  to: number,
  out: Uint8Array,
  at: number,
): number {
  let length = at;
  for (let i = from; i < to; i += 1) {
    let code = bytes[i] as number;
    if (code === QUOTE) {
      out[length++] = code;
      for (;;) {
        i += 1;
        code = bytes[i] as number;
        out[length++] = code;
        if (code === QUOTE) break;
        if (code === BACKSLASH) out[length++] = bytes[++i] as number;
      }
      continue;
    }
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) continue;
    out[length++] = code;
  }
  return length;
}
