// `open --baseline-evidence DIMENSION=PATH`: a transcript the caller produced promotes a declared
// baseline to a measured one, but only if the declared number stands in it on its own.
import { pythonFloatRepr } from './brief/python-json';
import { isPyBlank } from './python-text';
import { textKeyed } from './text-keyed';
import type { Finding, Provenance, RubricDimension } from './types';

export interface BaselineEvidence {
  /** The raw `DIMENSION=PATH` argument. */
  spec: string;
  /** The transcript, read by the shell; absent when the spec has no `=`. */
  transcript?: { path: string; text: string } | { path: string; error: string };
}

/** Every spelling of `value` a transcript may carry: Python's repr, and int/one-decimal forms of integral values. */
export function numberSpellings(value: number): string[] {
  const spellings = new Set<string>([pythonFloatRepr(value)]);
  if (Number.isInteger(value)) {
    const whole = Math.abs(value) < 1e21 ? value.toFixed(0) : BigInt(value).toString();
    spellings.add(whole);
    spellings.add(`${whole}.0`);
  }
  return [...spellings];
}

function isNumberChar(ch: string | undefined): boolean {
  return ch !== undefined && ((ch >= '0' && ch <= '9') || ch === '.');
}

/** True when one spelling of `value` occurs with no digit or `.` immediately before or after it. */
export function transcriptHasNumber(text: string, value: number): boolean {
  for (const spelling of numberSpellings(value)) {
    let at = text.indexOf(spelling);
    while (at >= 0) {
      if (!isNumberChar(text[at - 1]) && !isNumberChar(text[at + spelling.length])) return true;
      at = text.indexOf(spelling, at + 1);
    }
  }
  return false;
}

export interface EvidenceVerdict {
  /** Unreadable or empty transcripts: exit 8, reported before any other evidence problem. */
  unreadable: Finding[];
  /** Malformed pairs, unknown dimensions, transcripts without the baseline: exit 1. */
  malformed: Finding[];
  provenance: Record<string, Provenance>;
}

export function checkBaselineEvidence(
  rubric: RubricDimension[],
  evidence: BaselineEvidence[],
): EvidenceVerdict {
  const unreadable: Finding[] = [];
  const malformed: Finding[] = [];
  const measured = new Set<string>();
  const byName = new Map(rubric.map((d) => [d.dimension, d]));
  for (const item of evidence) {
    const eq = item.spec.indexOf('=');
    const name = eq < 0 ? '' : item.spec.slice(0, eq);
    const t = item.transcript;
    if (t && 'error' in t) {
      unreadable.push({
        message: `--baseline-evidence ${name}: ${t.path}: cannot be read (${t.error})`,
        code: 'unreadable-evidence',
      });
      continue;
    }
    if (t && isPyBlank(t.text)) {
      unreadable.push({
        message: `--baseline-evidence ${name}: ${t.path}: is empty`,
        code: 'empty-evidence',
      });
      continue;
    }
    if (eq < 0 || name === '' || !t) {
      malformed.push({
        message: `--baseline-evidence ${JSON.stringify(item.spec)}: expected DIMENSION=PATH`,
        code: 'bad-evidence-spec',
      });
      continue;
    }
    const dim = byName.get(name);
    if (!dim) {
      malformed.push({
        message: `--baseline-evidence ${name}: the rubric declares no such dimension`,
        code: 'undeclared-dimension',
      });
      continue;
    }
    if (!transcriptHasNumber(t.text, dim.baseline)) {
      malformed.push({
        message: `--baseline-evidence ${name}: ${t.path} does not show the declared baseline ${pythonFloatRepr(dim.baseline)}`,
        code: 'baseline-not-evidenced',
      });
      continue;
    }
    measured.add(name);
  }
  const provenance = textKeyed<Provenance>();
  for (const dim of [...rubric].sort((a, b) =>
    a.dimension < b.dimension ? -1 : a.dimension > b.dimension ? 1 : 0,
  )) {
    provenance[dim.dimension] = measured.has(dim.dimension) ? 'measured' : 'declared';
  }
  return { unreadable, malformed, provenance };
}
