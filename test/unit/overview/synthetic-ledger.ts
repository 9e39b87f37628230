// A work-loop ledger of any length, built in memory for the overview's tests and benchmark: two
// dimensions (one hard gate, lower is better), a weighted total, an epoch change, a stall, critic
// verdicts, and the optional cost and token keys on every other record.
import type { IterationRecord, Ledger, Outcome, RubricDimension } from '../../../src/engine/types';

export const RUBRIC: RubricDimension[] = [
  {
    dimension: 'failing-tests',
    evidence_command: 'npm test',
    baseline: 10,
    target: 0,
    weight: 40,
    failure_threshold: 12,
    direction: 'lower-is-better',
    hard_gate: true,
  },
  {
    dimension: 'coverage',
    evidence_command: 'npm run coverage',
    baseline: 60,
    target: 80,
    weight: 60,
    failure_threshold: 50,
    direction: 'higher-is-better',
    hard_gate: false,
  },
];

export function syntheticRecord(n: number, epoch: number, last: boolean): IterationRecord {
  const failing = Math.max(0, Math.round(10 - n / 3 + 3 * Math.sin(n)));
  const coverage = Math.round((60 + 20 * (1 - Math.exp(-n / 8)) + 2 * Math.cos(n * 1.7)) * 10) / 10;
  const outcome: Outcome = last ? 'complete' : n % 7 === 0 ? 'revise' : 'continue';
  const record: IterationRecord & Record<string, unknown> = {
    n,
    timestamp: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString().slice(0, 19) + 'Z',
    epoch,
    reported_outcome: outcome,
    outcome,
    stall: n % 97 === 0 ? 'repeated-error' : null,
    error_signature: null,
    state_hash: null,
    dependency_missing: null,
    actions: [`step-${n}`],
    baseline: null,
    measurements: { 'failing-tests': failing, coverage },
    evaluation: {
      dimensions: [
        {
          dimension: 'failing-tests',
          measured: failing,
          score: 0,
          weight: 40,
          hard_gate: true,
          must_not_regress: false,
          gate_failed: failing > 12,
          failure_threshold: 12,
          evidence_command: 'npm test',
        },
        {
          dimension: 'coverage',
          measured: coverage,
          score: 0,
          weight: 60,
          hard_gate: false,
          must_not_regress: false,
          gate_failed: false,
          failure_threshold: 50,
          evidence_command: 'npm run coverage',
        },
      ],
      weighted_total: Math.round((100 - failing * 4 + (coverage - 60)) * 100) / 100,
      hard_gate_failures: failing > 12 ? ['failing-tests'] : [],
      verdict: failing > 12 ? 'fail' : 'pass',
    },
    files_changed: [`src/file-${n % 5}.ts`],
    commands_run: ['npm test'],
    evidence_paths: [],
    critic_verdict: n % 5 === 0 ? (n % 10 === 0 ? 'PASS' : 'REVISE') : null,
    critic_next: null,
    critic_brief: n % 5 === 0 ? n.toString(16).padStart(16, '0') : null,
    decision: null,
    blocker: null,
    evidence: null,
    recommended_next: null,
    note: n === 1 ? 'first pass' : null,
  };
  if (n % 2 === 0) {
    record.cost_usd = 0.01 * (1 + (n % 3));
    record.tokens_in = 1000 + n;
    record.tokens_out = 200;
  }
  return record;
}

/** A ledger of `count` records, the first third in epoch 1 and the rest in epoch 2. */
export function syntheticLedger(count: number, session = 'synthetic'): Ledger {
  const split = Math.max(1, Math.floor(count / 3));
  const iterations = Array.from({ length: count }, (_, i) =>
    syntheticRecord(i + 1, i + 1 <= split ? 1 : 2, i + 1 === count),
  );
  return {
    schema_version: 1,
    session,
    contract: {
      purpose: 'Make the suite pass and raise coverage',
      owner: 'tests',
      starting_state: 'x',
      inputs: [],
      expected_outputs: [],
      success_criteria: [],
      failure_criteria: [],
      dependencies: [],
      iteration_limit: Math.max(10, count),
      timeout_behaviour: 'pause',
      escalation_path: 'a person',
      quality_rubric: RUBRIC,
    },
    status: 'open',
    final_outcome: null,
    epoch: count > 1 ? 2 : 1,
    iterations,
    completed_actions: [],
    resumed: 0,
  };
}
