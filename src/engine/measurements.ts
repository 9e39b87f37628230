// `--measure DIM=NUMBER` parsing, shared by iterate and score: every problem is a finding.
import { parsePythonFloat } from './python-float';
import { textKeyed } from './text-keyed';
import type { Finding, RubricDimension } from './types';

export interface ParsedMeasurements {
  values: Record<string, number>;
  findings: Finding[];
}

function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? text.slice(0, 80) + '…' : text);
}

/**
 * Parses the raw `DIM=NUMBER` strings against the rubric. With `required` false an empty list is
 * fine (iterate without measurements); otherwise — or once any is given — every declared
 * dimension must be measured exactly once.
 */
export function parseMeasurements(
  raw: string[],
  rubric: RubricDimension[],
  required: boolean,
): ParsedMeasurements {
  const findings: Finding[] = [];
  // Keyed by dimension names the contract's author chose: `__proto__` must be a plain key.
  const values = textKeyed<number>();
  if (raw.length === 0 && !required) return { values, findings };
  const declared = new Set(rubric.map((d) => d.dimension));
  const seen = new Set<string>();
  for (const item of raw) {
    const eq = item.indexOf('=');
    const name = eq < 0 ? '' : item.slice(0, eq);
    if (eq < 0 || name.trim() === '') {
      findings.push({ message: `--measure ${quote(item)}: expected DIMENSION=NUMBER`, code: 'bad-measure' });
      continue;
    }
    if (seen.has(name)) {
      findings.push({
        message: `--measure ${quote(name)}: measured more than once`,
        code: 'repeated-measure',
      });
      continue;
    }
    seen.add(name);
    const parsed = parsePythonFloat(item.slice(eq + 1));
    if (!parsed.ok) {
      const why = parsed.reason === 'not-finite' ? 'is not a finite number' : 'is not a number';
      findings.push({
        message: `--measure ${quote(name)}: value ${quote(item.slice(eq + 1))} ${why}`,
        code: parsed.reason,
      });
      continue;
    }
    if (!declared.has(name)) {
      findings.push({
        message: `--measure ${quote(name)}: the rubric declares no such dimension`,
        code: 'undeclared-dimension',
      });
      continue;
    }
    values[name] = parsed.value;
  }
  for (const dim of rubric) {
    if (!seen.has(dim.dimension)) {
      findings.push({
        message: `--measure: declared dimension ${quote(dim.dimension)} was not measured`,
        code: 'unmeasured-dimension',
      });
    }
  }
  return { values, findings };
}
