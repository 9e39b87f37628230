// `status`: what a reader asks about a loop. Never writes, never re-runs a predicate.
import { budgetReport } from './engineering/budget';
import { readEngineeringState } from './engineering/state';
import { currentEpoch, epochRecords } from './ledger-view';
import type { Evaluation, IterationRecord, Ledger, Outcome } from './types';

export interface StatusPayload {
  session: string;
  status: Ledger['status'];
  final_outcome: Outcome | null;
  epoch: number;
  iterations: number;
  completed_actions: string[];
  stalls: string[];
  last_outcome?: Outcome;
  last_timestamp: string | null;
  rubric_verdict: Evaluation['verdict'] | null;
  weighted_total: number | null;
  critic_verdict: string | null;
  decision: string | null;
  quality_from: number | null;
  baselines_measured: number | null;
  baselines_total: number | null;
  /** Loop-engineering ledgers only: spent against each cap (`{calls: {spent, cap}, …}`). */
  budget?: Record<string, { spent: number; cap: number | null }>;
}

/** The newest record that was judged — scored, reviewed or decided. All quality keys come from it alone. */
function judgedRecord(records: IterationRecord[]): IterationRecord | null {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i] as IterationRecord;
    if (r.evaluation || r.critic_verdict || r.decision) return r;
  }
  return null;
}

/** Status never writes and never re-runs a predicate. `exitCode` is 4 over a ledger with no iterations. */
export function status(ledger: Ledger): { payload: StatusPayload; exitCode: 0 | 4 } {
  const records = ledger.iterations;
  const last = records[records.length - 1];
  const judged = judgedRecord(records);
  const provenance = ledger.baseline_provenance;
  const counted = provenance && Object.keys(provenance).length > 0 ? Object.values(provenance) : null;
  const payload: StatusPayload = {
    session: ledger.session,
    status: ledger.status,
    final_outcome: ledger.final_outcome ?? null,
    epoch: currentEpoch(ledger),
    iterations: records.length,
    completed_actions: [...ledger.completed_actions],
    stalls: records
      .map((r) => r.stall)
      .filter((s): s is NonNullable<typeof s> => s !== null && s !== undefined),
    last_timestamp: last?.timestamp ?? null,
    rubric_verdict: judged?.evaluation?.verdict ?? null,
    weighted_total: judged?.evaluation?.weighted_total ?? null,
    critic_verdict: judged?.critic_verdict ?? null,
    decision: judged?.decision ?? null,
    quality_from: judged ? judged.n : null,
    baselines_measured: counted ? counted.filter((p) => p === 'measured').length : null,
    baselines_total: counted ? counted.length : null,
  };
  if (last) payload.last_outcome = last.outcome;
  const engineering = readEngineeringState(ledger as { engineering?: unknown });
  if (engineering && !('problem' in engineering)) {
    payload.budget = budgetReport(engineering, epochRecords(ledger).length);
  }
  return { payload, exitCode: last ? 0 : 4 };
}
