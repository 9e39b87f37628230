// Admitting a loop-engineering contract at `open --engineering`: strict validation first (any
// finding is NEEDS_INPUT — the controls are never inferred from intent), then the ledger key
// and, when no work-loop contract is given, the work-loop contract the ledger runs under.
import { sortKeysDeep } from '../ledger-view';
import { EXIT, refuse, type Refusal } from '../refusal';
import type { Contract, Finding, Ledger } from '../types';
import type { EngineeringCheck } from './check';
import { uncountableCaps } from './caps';
import { snakeKey } from './fields';
import { capValues, engineeringState, type EngineeringState } from './state';

/** The ledger key for an admissible contract, or the refusal that says why it is not. */
export function admitEngineering(label: string, check: EngineeringCheck): EngineeringState | Refusal {
  if (check.findings.length > 0) {
    const findings: Finding[] = [
      {
        message: `${label}: NEEDS_INPUT — the loop-engineering contract is not admissible (${check.findings.length} finding(s) under --strict)`,
        code: 'needs-input',
      },
      ...check.findings.map((f) => ({
        message: `${label}${f.line !== null ? `:${f.line}` : ''}: ${f.message} [${f.code}]`,
        code: f.code,
      })),
    ];
    return refuse(EXIT.malformed, findings);
  }
  const state = engineeringState(label, check.form, check.fields);
  if ('problem' in state)
    return refuse(EXIT.malformed, [{ message: `${label}: ${state.problem}`, code: 'bad-no-op-limit' }]);
  // A cap the ledger cannot count would be stored as null and never fire: refuse it instead.
  const uncounted = uncountableCaps(capValues(check.fields), state.caps);
  if (uncounted.length > 0) {
    return refuse(EXIT.malformed, [
      {
        message: `${label}: NEEDS_INPUT — ${uncounted.length} cap(s) the ledger cannot enforce`,
        code: 'needs-input',
      },
      ...uncounted.map(({ field, problem }) => {
        const line = check.spots.get(field)?.line;
        const key = snakeKey(field);
        return {
          message: `${label}${line !== undefined ? `:${line + 1}` : ''}: ${field} ${JSON.stringify(check.fields.get(field) ?? '')} ${problem} [cap-not-countable:${key}]`,
          code: `cap-not-countable:${key}`,
        };
      }),
    ]);
  }
  return state;
}

/**
 * The work-loop contract a loop opened with only `--engineering` runs under: its fields carry the
 * engineering contract's words, its iteration limit is the max-iterations cap, and its rubric is
 * empty (the verifier the contract names judges the result; `score` has nothing to score).
 */
export function derivedContract(state: EngineeringState): Contract {
  const f = state.fields;
  const text = (key: string): string => f[key] ?? '';
  return sortKeysDeep({
    purpose: text('objective'),
    owner: text('owner'),
    starting_state: text('inputs'),
    inputs: [text('inputs')],
    expected_outputs: [text('artifacts_path')],
    success_criteria: [text('success_metric')],
    failure_criteria: [text('stop_condition')],
    dependencies: [],
    iteration_limit: Math.max(1, Math.floor(state.caps.iterations ?? 1)),
    timeout_behaviour: text('time_limit'),
    escalation_path: text('recovery'),
    quality_rubric: [],
  });
}

/** The opened ledger with the key attached (sorted, as every ledger key is written). */
export function attachEngineering(
  ledger: Ledger,
  state: EngineeringState,
): Ledger & { engineering: EngineeringState } {
  return { ...ledger, engineering: sortKeysDeep(state) };
}

/** The repeated-error threshold of a loop-engineering ledger: the same signature twice stops it. */
export const ENGINEERING_STALL_THRESHOLD = 2;
