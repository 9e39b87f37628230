// Numbers as Python's float() reads them. `--measure` values come from agents that were
// written against the original (Python) engine, so "1_000", " 2.5 " and "1e3" must keep
// working; Loop Ledger refuses the non-finite values Python would accept (inf, nan, 1e999),
// because they cannot be written to JSON.
import { pyStrip } from './python-text';

const DIGITS = '\\d(?:_?\\d)*';
const FLOAT = new RegExp(`^[+-]?(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`);
const NON_FINITE = /^[+-]?(?:inf|infinity|nan)$/i;

export type ParsedNumber = { ok: true; value: number } | { ok: false; reason: 'not-a-number' | 'not-finite' };

export function parsePythonFloat(text: string): ParsedNumber {
  const s = pyStrip(text);
  if (NON_FINITE.test(s)) return { ok: false, reason: 'not-finite' };
  if (!FLOAT.test(s)) return { ok: false, reason: 'not-a-number' };
  const value = Number(s.replace(/_/g, ''));
  if (Number.isNaN(value)) return { ok: false, reason: 'not-a-number' };
  if (!Number.isFinite(value)) return { ok: false, reason: 'not-finite' };
  return { ok: true, value };
}
