// Python's text rules, which the original engine's parsers used: its whitespace set (for
// strip(), split() and `\s`), its line breaks (splitlines()) and its string order (by code
// point). Matching them keeps ids, signatures and parsed paths equal across both engines.

/**
 * The characters Python's `str.isspace()` (and so `str.strip()`, `str.split()` and `\s` in a
 * `re` pattern) treats as whitespace. It differs from JavaScript's `\s`: it includes
 * U+001C–U+001F and U+0085, and excludes U+FEFF.
 */
export const PY_WHITESPACE =
  '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const LEADING_WS = new RegExp(`^[${PY_WHITESPACE}]+`);
const TRAILING_WS = new RegExp(`[${PY_WHITESPACE}]+$`);
const ONLY_WS = new RegExp(`^[${PY_WHITESPACE}]*$`);

/** A printable ASCII character other than the space: whitespace under no rule at all. */
export function isVisibleAscii(code: number): boolean {
  return code > 0x20 && code < 0x7f;
}

/** Python's `s.strip()` with no argument. */
export function pyStrip(text: string): string {
  // Most text has nothing to strip: two character tests spare two regular expressions, which
  // counts when the 50,000 path lines of a 20 MiB diff are read.
  if (isVisibleAscii(text.charCodeAt(0)) && isVisibleAscii(text.charCodeAt(text.length - 1))) return text;
  return text.replace(LEADING_WS, '').replace(TRAILING_WS, '');
}

/** True when Python's `not s.strip()` would be true. */
export function isPyBlank(text: string): boolean {
  return ONLY_WS.test(text);
}

/** The characters Python's `str.splitlines()` breaks lines at, as a regex class body. */
export const PY_LINE_BREAKS = '\\n\\r\\v\\f\\x1c-\\x1e\\x85\\u2028\\u2029';

/** One line break as `str.splitlines()` sees it (\r\n counts once). */
export const PY_LINE_BREAK = new RegExp(`\\r\\n|[${PY_LINE_BREAKS}]`);

/**
 * What Python's text mode reads: \r\n and a lone \r each become \n. The original engine read
 * its inputs that way, so doing the same keeps brief ids equal for files with Windows line
 * endings, whichever shell read them.
 */
export function pyUniversalNewlines(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** Python's `s.splitlines()`: no trailing empty line after a final break. */
export function pySplitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(PY_LINE_BREAK);
  const last = text.charCodeAt(text.length - 1);
  if (lines.length > 1 && lines[lines.length - 1] === '' && PY_LINE_BREAK.test(String.fromCharCode(last))) {
    lines.pop();
  }
  return lines;
}

/**
 * Order two strings the way Python's `sorted()` does: by code point. JavaScript's default
 * sort compares UTF-16 code units, which puts astral characters (surrogate pairs) before
 * U+E000–U+FFFF; Python puts them after.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Only a surrogate against a unit in U+E000–U+FFFF sorts differently by code point.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

const SURROGATE = /[\ud800-\udfff]/;

/** Sorted, deduplicated, in Python's order. */
export function sortedUnique(values: Iterable<string>): string[] {
  const unique = [...new Set(values)];
  // Without surrogates, UTF-16 order is code-point order and the native sort is much faster.
  if (unique.some((v) => SURROGATE.test(v))) return unique.sort(compareCodePoints);
  return unique.sort();
}
