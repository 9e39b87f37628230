// The brief id must equal the one the original Python engine computes, so the bytes we hash
// have to be the bytes CPython's `json.dumps(value, sort_keys=True)` would produce. This
// module reproduces that serialisation for plain JSON data.
//
// Known limitation: after JSON.parse, JavaScript cannot tell `10` from `10.0`. Python keeps
// them apart (int vs float) and prints `10` vs `10.0`. We print every integral number as an
// int, which matches what a contract author almost always writes; a ledger that spells an
// integral value with a decimal point (`"weight": 20.0`) hashes differently here than in the
// original engine.

import { isAscii } from 'node:buffer';
import { isChunkedText } from '../chunked-text';
import { compareCodePoints } from '../python-text';

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
  return pythonEscapeOfJsonEscape(JSON.stringify(s).slice(1, -1));
}

/** A string body as JSON.stringify escapes it (no quotes) → as `json.dumps` (ensure_ascii) does. */
function pythonEscapeOfJsonEscape(body: string): string {
  // Python also escapes DEL and everything above ASCII, one UTF-16 unit at a time, which
  // is how an astral character becomes a surrogate-pair escape.
  if (Buffer.byteLength(body, 'utf8') === body.length && !body.includes('\x7f')) return body;
  return body.replace(NON_ASCII, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** Receives each piece: a string, or bytes that are ASCII (whose latin1 reading is the same text). */
type Write = (chunk: string | Uint8Array) => void;

const DEL = 0x7f;

/** ASCII without DEL: bytes Python's ensure_ascii escape leaves as JSON.stringify left them. */
function isPlainAscii(bytes: Uint8Array): boolean {
  return isAscii(bytes) && !bytes.includes(DEL);
}

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
  } else if (isChunkedText(value)) {
    // The same escape, a chunk at a time: every escape covers one UTF-16 unit, so the pieces
    // join to exactly the escape of the whole text.
    out('"');
    for (const { pieces, plainAscii } of value.jsonChunks()) {
      if (plainAscii || pieces.every(isPlainAscii)) for (const piece of pieces) out(piece);
      else out(pythonEscapeOfJsonEscape(Buffer.concat(pieces).toString('utf8')));
    }
    out('"');
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
 * one giant string). Every piece is pure ASCII, a string or bytes. A ChunkedText is written as
 * the string it stands for.
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
  write(value, (piece) =>
    pieces.push(typeof piece === 'string' ? piece : Buffer.from(piece).toString('latin1')),
  );
  return pieces.join('');
}
