// Numbers as Python's float() reads them. `--measure` values come from agents that were
// written against the original (Python) engine, so "1_000", " 2.5 " and "1e3" must keep
// working; Loop Ledger refuses the non-finite values Python would accept (inf, nan, 1e999),
// because they cannot be written to JSON.
const DIGITS = '\\d(?:_?\\d)*';
const FLOAT = new RegExp(`^[+-]?(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`);
const NON_FINITE = /^[+-]?(?:inf|infinity|nan)$/i;
// Python's float() strips str.isspace() characters, which include the \x1c-\x1f separators.
// eslint-disable-next-line no-control-regex
const PY_SPACE = /^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/g;

export type ParsedNumber = { ok: true; value: number } | { ok: false; reason: 'not-a-number' | 'not-finite' };

export function parsePythonFloat(text: string): ParsedNumber {
  const s = text.replace(PY_SPACE, '');
  if (NON_FINITE.test(s)) return { ok: false, reason: 'not-finite' };
  if (!FLOAT.test(s)) return { ok: false, reason: 'not-a-number' };
  const value = Number(s.replace(/_/g, ''));
  if (Number.isNaN(value)) return { ok: false, reason: 'not-a-number' };
  if (!Number.isFinite(value)) return { ok: false, reason: 'not-finite' };
  return { ok: true, value };
}
