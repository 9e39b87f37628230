// Python's `repr()` and `type().__name__` for JSON values, for validator messages that quote a
// value the way the original Python validator prints it (`expected 'coder', got None`).
import { pythonFloatRepr } from '../brief/python-json';

/** `type(value).__name__` of the Python value `json.load` makes of this JSON value. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

function escapeChar(ch: string, quote: string): string {
  if (ch === '\\' || ch === quote) return `\\${ch}`;
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  const code = ch.codePointAt(0) as number;
  // Python prints other control and non-printable characters escaped; printable text as it is.
  if (code < 0x20 || (code >= 0x7f && code <= 0xa0) || code === 0xad)
    return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code === 0x2028 || code === 0x2029 || (code >= 0xd800 && code <= 0xdfff))
    return `\\u${code.toString(16).padStart(4, '0')}`;
  return ch;
}

/** Python's `repr(str)`: single quotes unless the text has one and no double quote. */
export function pyStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) out += escapeChar(ch, quote);
  return out + quote;
}

/** Python's `repr()` of the value `json.load` makes of this JSON value. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number')
    return Number.isInteger(value) ? String(BigInt(value)) : pythonFloatRepr(value);
  if (typeof value === 'string') return pyStrRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${pyStrRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
}
