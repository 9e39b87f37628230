// `status`: what a reader asks about a loop. Never writes, never re-runs a predicate.
import { budgetReport } from './engineering/budget';
import { readEngineeringState } from './engineering/state';
import { currentEpoch } from './ledger-view';
import { epochSummary, summarizeRecords, type RecordsSummary } from './records-summary';
import type { Evaluation, Ledger, Outcome } from './types';

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

/**
 * Status never writes and never re-runs a predicate. `exitCode` is 4 over a ledger with no
 * iterations. Old records are read only through `records` (records-summary.ts): the quality keys
 * all come from the newest judged record alone. A caller that did not parse the records (the
 * store's fast path) passes their stored summary; `ledger.iterations` is then not read.
 */
export function status(
  ledger: Ledger,
  records: RecordsSummary = summarizeRecords(ledger.iterations),
): { payload: StatusPayload; exitCode: 0 | 4 } {
  const last = records.last;
  const judged = records.judged;
  const provenance = ledger.baseline_provenance;
  const counted = provenance && Object.keys(provenance).length > 0 ? Object.values(provenance) : null;
  const payload: StatusPayload = {
    session: ledger.session,
    status: ledger.status,
    final_outcome: ledger.final_outcome ?? null,
    epoch: currentEpoch(ledger),
    iterations: records.count,
    completed_actions: [...ledger.completed_actions],
    stalls: [...records.stalls],
    last_timestamp: last?.timestamp ?? null,
    rubric_verdict: judged?.verdict ?? null,
    weighted_total: judged?.weighted_total ?? null,
    critic_verdict: judged?.critic_verdict ?? null,
    decision: judged?.decision ?? null,
    quality_from: judged ? judged.n : null,
    baselines_measured: counted ? counted.filter((p) => p === 'measured').length : null,
    baselines_total: counted ? counted.length : null,
  };
  if (last) payload.last_outcome = last.outcome;
  const engineering = readEngineeringState(ledger as { engineering?: unknown });
  if (engineering && !('problem' in engineering)) {
    payload.budget = budgetReport(engineering, epochSummary(records, currentEpoch(ledger)).records);
  }
  return { payload, exitCode: last ? 0 : 4 };
}
