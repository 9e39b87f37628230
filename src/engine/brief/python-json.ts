// The brief id must equal the one the original Python engine computes, so the bytes we hash
// have to be the bytes CPython's `json.dumps(value, sort_keys=True)` would produce. This
// module reproduces that serialisation for plain JSON data, plus the Python ordering and
// whitespace rules the brief parsers share.
//
// Known limitation: after JSON.parse, JavaScript cannot tell `10` from `10.0`. Python keeps
// them apart (int vs float) and prints `10` vs `10.0`. We print every integral number as an
// int, which matches what a contract author almost always writes; a ledger that spells an
// integral value with a decimal point (`"weight": 20.0`) hashes differently here than in the
// original engine.

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

/** Python's `s.strip()` with no argument. */
export function pyStrip(text: string): string {
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

/**
 * Python's `repr(float(n))`: the shortest digits that round-trip (the same digits
 * JavaScript picks), in fixed notation when the decimal exponent is in [-4, 16) and in
 * `1.5e-05` / `1e+16` form otherwise. Integral values keep a trailing `.0`.
 */
export function pythonFloatRepr(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const sign = n < 0 ? '-' : '';
  // toExponential() with no argument gives the shortest round-trip digits.
  const [mantissa = '', exp = '0'] = Math.abs(n).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const e = Number(exp);
  if (e < -4 || e >= 16) {
    const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const mag = String(Math.abs(e)).padStart(2, '0');
    return `${sign}${head}e${e < 0 ? '-' : '+'}${mag}`;
  }
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  const whole = digits.slice(0, e + 1).padEnd(e + 1, '0');
  const frac = digits.slice(e + 1) || '0';
  return `${sign}${whole}.${frac}`;
}

/** A JSON number as `json.dumps` prints it, under the int/float rule described above. */
function dumpNumber(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '-Infinity';
  // Python ints print every digit; BigInt does too where String(1e21) would not.
  if (Number.isInteger(n)) return BigInt(n).toString();
  return pythonFloatRepr(n);
}

const NON_ASCII = /[\u007f-\uffff]/g;

/**
 * Long strings are escaped and emitted in slices of this many UTF-16 units: the output is
 * identical (every escape covers one unit, surrogate halves included), and a hash fed slice
 * by slice reads data still in cache — about twice as fast as escaping 20 MB in one go.
 */
const SLICE = 1 << 16;

/** Escape a string body as `json.dumps` (ensure_ascii) does, without the quotes. */
function escapeBody(s: string): string {
  // JSON.stringify already escapes quotes, backslashes, control characters and lone
  // surrogates exactly as Python does (lower-case `\u00xx`).
  const quoted = JSON.stringify(s);
  const body = quoted.slice(1, -1);
  // Python also escapes DEL and everything above ASCII, one UTF-16 unit at a time, which
  // is how an astral character becomes a surrogate-pair escape.
  if (Buffer.byteLength(body, 'utf8') === body.length && !body.includes('\x7f')) return body;
  return body.replace(NON_ASCII, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

type Write = (chunk: string) => void;

function writeString(s: string, write: Write): void {
  write('"');
  if (s.length <= SLICE) write(escapeBody(s));
  else for (let i = 0; i < s.length; i += SLICE) write(escapeBody(s.slice(i, i + SLICE)));
  write('"');
}

function write(value: unknown, out: Write): void {
  if (value === null || value === undefined) {
    out('null');
  } else if (typeof value === 'string') {
    writeString(value, out);
  } else if (typeof value === 'number') {
    out(dumpNumber(value));
  } else if (typeof value === 'boolean') {
    out(value ? 'true' : 'false');
  } else if (Array.isArray(value)) {
    out('[');
    value.forEach((item, i) => {
      if (i > 0) out(', ');
      write(item, out);
    });
    out(']');
  } else if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // Like JSON.stringify, a key whose value is undefined is not data and is left out.
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort(compareCodePoints);
    out('{');
    keys.forEach((key, i) => {
      if (i > 0) out(', ');
      writeString(key, out);
      out(': ');
      write(record[key], out);
    });
    out('}');
  } else {
    throw new TypeError(`pythonJsonDumps: cannot serialise a value of type ${typeof value}`);
  }
}

/**
 * Stream the serialisation below to `out`, piece by piece (for hashing without building
 * one giant string). Every piece is pure ASCII.
 */
export function writePythonJson(value: unknown, out: Write): void {
  write(value, out);
}

/**
 * CPython's `json.dumps(value, sort_keys=True)` for plain JSON data: separators `", "` and
 * `": "`, ensure_ascii, keys sorted by code point at every depth, NaN/Infinity spelled as
 * Python spells them.
 */
export function pythonJsonDumps(value: unknown): string {
  const pieces: string[] = [];
  write(value, (piece) => pieces.push(piece));
  return pieces.join('');
}
