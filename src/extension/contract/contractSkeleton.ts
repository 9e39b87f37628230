// The blank a contract starts from: every field present, nothing invented. Text fields are empty
// and the iteration limit is 0, so each one shows up as a finding to fill in rather than passing
// validation with a value nobody chose. Used by "New Contract" and the "add missing" quick fix.
import { CONTRACT_FIELDS, REQUIRED_DIMENSION_KEYS } from '../../engine/contract';

const DIMENSION_BLANKS: Record<string, unknown> = {
  dimension: '',
  evidence_command: '',
  baseline: 0,
  target: 0,
  weight: 1,
  failure_threshold: 0,
  direction: '',
  hard_gate: false,
};

/** The blank value for a missing rubric-dimension key. */
export function dimensionKeyBlank(key: string): unknown {
  return DIMENSION_BLANKS[key] ?? '';
}

/** A rubric dimension with all eight required keys blank. */
export function blankDimension(): Record<string, unknown> {
  return Object.fromEntries(REQUIRED_DIMENSION_KEYS.map((key) => [key, dimensionKeyBlank(key)]));
}

/** The blank value for a missing contract field. */
export function contractFieldBlank(field: string): unknown {
  if (field === 'iteration_limit') return 0;
  if (field === 'quality_rubric') return [blankDimension()];
  return '';
}

/** A whole contract with every field blank, in the order the engine reports them. */
export function blankContract(): Record<string, unknown> {
  return Object.fromEntries(CONTRACT_FIELDS.map((field) => [field, contractFieldBlank(field)]));
}
