// The stall predicates: the original four, then the contract's optional caps (cost-exhausted,
// tokens-exhausted, time-exhausted), then budget-stop for loop-engineering caps. They run only
// over the current epoch's records plus this iteration's facts, only when the reported outcome
// is `continue`, and the first that fires names the recorded outcome.
import { currentEpoch, stallThreshold } from './ledger-view';
import { epochSummary, summarizeRecords, type RecordsSummary } from './records-summary';
import { addSpend, elapsedSeconds, noSpend, reachedLimit, type Spend } from './spend';
import type { Ledger, Outcome, StallName } from './types';

export interface StallFacts {
  dependencyMissing: string | null;
  errorSignature: string | null;
  stateHash: string | null;
  /** The driver applies its own cycle rule (repeat's cycle confirmation): circular-state stays silent. */
  ownCycleRule?: boolean;
  /** Loop-engineering caps this iteration reached (`calls 18/18` …); empty or absent: none. */
  budgetReached?: string[];
  /** What this iteration reported of cost and tokens (for the contract's caps). */
  spend?: Partial<Spend>;
  /** The caller's clock (for `time_limit`); absent: the time cap is not checked. */
  now?: Date;
}

export interface Stall {
  name: StallName;
  outcome: Outcome;
  /** For a stall-promoted escalate: the three escalate fields the engine writes when the caller gave none. */
  derived?: { blocker: string; evidence: string; recommended_next: string };
}

/** `summary` is the ledger's records' (records-summary.ts); only the current epoch's part is read. */
export function detectStall(
  ledger: Ledger,
  facts: StallFacts,
  summary: RecordsSummary = summarizeRecords(ledger.iterations),
): Stall | null {
  const records = epochSummary(summary, currentEpoch(ledger));
  if (facts.dependencyMissing !== null) {
    return {
      name: 'dependency-unavailable',
      outcome: 'escalate',
      derived: {
        blocker: 'A dependency the contract declares could not be reached, so the loop cannot progress.',
        evidence: `declared dependency unreachable: ${facts.dependencyMissing}`,
        recommended_next: 'Restore access to the dependency, then re-open this contract.',
      },
    };
  }
  if (facts.errorSignature !== null) {
    const threshold = stallThreshold(ledger);
    const signature = facts.errorSignature;
    const seen = records.errors.filter((s) => s === signature).length;
    if (seen + 1 >= threshold) {
      return {
        name: 'repeated-error',
        outcome: 'escalate',
        derived: {
          blocker: 'The same failure keeps recurring; more iterations of this approach will not clear it.',
          evidence: `error signature ${facts.errorSignature} repeated to threshold ${threshold}`,
          recommended_next:
            'Diagnose the recurring error outside the loop, then re-open with a revised contract.',
        },
      };
    }
  }
  if (facts.stateHash !== null && !facts.ownCycleRule && records.states.includes(facts.stateHash)) {
    return { name: 'circular-state', outcome: 'revise' };
  }
  if (records.records + 1 >= ledger.contract.iteration_limit) {
    return { name: 'retries-exhausted', outcome: 'stop' };
  }
  const spent = addSpend(records.spend ?? noSpend(), facts.spend ?? {});
  const limit = reachedLimit(
    ledger.contract,
    spent,
    facts.now ? elapsedSeconds(ledger.opened_at, facts.now) : null,
  );
  if (limit) return { name: limit.name, outcome: 'stop' };
  if (facts.budgetReached && facts.budgetReached.length > 0) return { name: 'budget-stop', outcome: 'stop' };
  return null;
}
