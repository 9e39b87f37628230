// `status`: what a reader asks about a loop. Never writes, never re-runs a predicate.
import { budgetReport } from './engineering/budget';
import { readEngineeringState } from './engineering/state';
import { currentEpoch } from './ledger-view';
import { epochSummary, summarizeRecords, type RecordsSummary } from './records-summary';
import { addSpend, contractLimits, elapsedSeconds, noSpend, type Spend } from './spend';
import type { Evaluation, Ledger, Outcome } from './types';

/** One cap of the current epoch: what was spent against it. */
export interface LimitUse {
  spent: number;
  cap: number;
}

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
  /** What every iteration of the session reported of cost and tokens (0 when none did). */
  spend: Spend;
  /**
   * The current epoch against its contract's caps: `iterations` always, `cost_usd`, `tokens` and
   * `time_s` when the contract declares them (time: from the epoch's opening to its newest record).
   */
  limits: { iterations: LimitUse; cost_usd?: LimitUse; tokens?: LimitUse; time_s?: LimitUse };
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
  const epoch = epochSummary(records, currentEpoch(ledger));
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
    spend: sessionSpend(records),
    limits: epochLimits(ledger, epoch, last?.timestamp ?? null),
  };
  if (last) payload.last_outcome = last.outcome;
  const engineering = readEngineeringState(ledger as { engineering?: unknown });
  if (engineering && !('problem' in engineering)) {
    payload.budget = budgetReport(engineering, epoch.records);
  }
  return { payload, exitCode: last ? 0 : 4 };
}

function sessionSpend(records: RecordsSummary): Spend {
  let total = noSpend();
  for (const key of Object.keys(records.epochs)) {
    const spent = epochSummary(records, Number(key)).spend;
    if (spent) total = addSpend(total, spent);
  }
  return total;
}

function epochLimits(
  ledger: Ledger,
  epoch: ReturnType<typeof epochSummary>,
  lastTimestamp: string | null,
): StatusPayload['limits'] {
  const caps = contractLimits(ledger.contract);
  const spent = epoch.spend ?? noSpend();
  const limits: StatusPayload['limits'] = {
    iterations: { spent: epoch.records, cap: ledger.contract.iteration_limit },
  };
  if (caps.cost_limit !== undefined) limits.cost_usd = { spent: spent.cost_usd, cap: caps.cost_limit };
  if (caps.token_limit !== undefined)
    limits.tokens = { spent: spent.tokens_in + spent.tokens_out, cap: caps.token_limit };
  if (caps.time_limit !== undefined) {
    // The newest record is this epoch's only when the epoch has records (records are in order).
    const at = epoch.records > 0 ? lastTimestamp : null;
    limits.time_s = { spent: Math.floor(elapsedSeconds(ledger.opened_at, at) ?? 0), cap: caps.time_limit };
  }
  return limits;
}
