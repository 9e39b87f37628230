// `iterate` over a loop-engineering ledger: the core rules (../iterate.ts) plus what the loop-engineering contract
// adds — spent budgets and the budget-stop predicate, NO_OP, termination normalisation and the
// record's `loop_status`. On a ledger opened without --engineering and with none of these flags
// it is exactly the core iterate, so original-format records keep their 24 keys.
import { iterate, type IterateInput, type IterateResult } from '../iterate';
import { currentEpoch, isBlank, sortKeysDeep } from '../ledger-view';
import { epochSummary, summarizeRecords, type RecordsSummary } from '../records-summary';
import { EXIT, isRefusal, refuse, type Refusal } from '../refusal';
import type { Finding, IterationRecord, Ledger } from '../types';
import { addSpent, elapsedMs, parseSpent, reachedCaps, spentTotalsOutOfRange } from './budget';
import { completionFindings } from './completion';
import { loopStatusOf } from './loop-status';
import { checkNoOp, type NoOpRecord } from './no-op';
import { readEngineeringState, type EngineeringState } from './state';
import {
  forcedOutcome,
  normaliseTermination,
  terminationEscalation,
  type TerminationReason,
} from './termination';

export interface EngineeringIterateInput extends IterateInput {
  /** `KIND=N` values of `--spent`. */
  spent?: string[];
  noOp?: boolean;
  eligibleCount?: string | null;
  outputCount?: string | null;
  sideEffects?: string | null;
  /** The provider's raw stop signal (`--termination`). */
  termination?: string | null;
}

/** A ledger with the loop-engineering key (other code sees a plain Ledger). */
export type EngineeringLedger = Ledger & { engineering?: EngineeringState };

/** Whether the caller used any of the loop-engineering flags. */
function usesEngineering(input: EngineeringIterateInput): boolean {
  return (
    (input.spent ?? []).length > 0 ||
    input.noOp === true ||
    [input.eligibleCount, input.outputCount, input.sideEffects].some((v) => v !== null && v !== undefined)
  );
}

/** `records`: as for iterate (../iterate.ts), the old records' summary. */
export function iterateEngineering(
  ledger: Ledger,
  input: EngineeringIterateInput,
  records: RecordsSummary = summarizeRecords(ledger.iterations),
): IterateResult | Refusal {
  const read = readEngineeringState(ledger as EngineeringLedger);
  if (read !== null && 'problem' in read) return refuse(EXIT.usage, [`${ledger.session}: ${read.problem}`]);
  const state = read;
  const rawTermination = input.termination ?? null;
  if (state === null && !usesEngineering(input) && rawTermination === null)
    return iterate(ledger, input, records);

  const findings: Finding[] = [];
  if (state === null && (input.spent ?? []).length > 0) {
    findings.push({
      message: '--spent needs a loop opened with --engineering (its contract declares the caps)',
      code: 'no-engineering',
    });
  }
  const spent = parseSpent(input.spent ?? []);
  findings.push(...spent.problems.map((message) => ({ message, code: 'bad-spent' })));
  findings.push(...spent.outOfRange.map((message) => ({ message, code: 'spent-out-of-range' })));
  let noOp: NoOpRecord | null = null;
  if (input.noOp) {
    if (input.outcome !== 'continue' && input.outcome !== 'complete') {
      findings.push({
        message: `--no-op needs --outcome continue or complete, not ${input.outcome}`,
        code: 'no-op-refused',
      });
    }
    const checked = checkNoOp(state, {
      eligibleCount: input.eligibleCount ?? null,
      outputCount: input.outputCount ?? null,
      sideEffects: input.sideEffects ?? null,
      filesChanged: input.filesChanged ?? [],
      evidencePaths: (input.evidencePaths ?? []).filter((p) => !isBlank(p)),
    });
    if ('problems' in checked)
      findings.push(...checked.problems.map((message) => ({ message, code: 'no-op-refused' })));
    else noOp = checked;
  } else if (
    [input.eligibleCount, input.outputCount, input.sideEffects].some((v) => v !== null && v !== undefined)
  ) {
    findings.push({
      message: '--eligible-count, --output-count and --side-effects describe a NO_OP: pass --no-op',
      code: 'no-op-refused',
    });
  }
  let termination: TerminationReason | null = null;
  if (rawTermination !== null) {
    if (isBlank(rawTermination))
      findings.push({ message: '--termination: empty signal', code: 'bad-termination' });
    else termination = normaliseTermination(rawTermination);
  }
  if (findings.length > 0) return refuse(spent.outOfRange.length > 0 ? EXIT.usage : EXIT.malformed, findings);

  // The signal may force the outcome; an escalate it forces gets the three fields it needs.
  const forced = termination ? forcedOutcome(termination) : null;
  let core: IterateInput = { ...input, outcome: forced ?? input.outcome };
  if (forced === 'escalate' && termination) {
    const why = terminationEscalation(termination, rawTermination as string);
    core = {
      ...core,
      blocker: isBlank(input.blocker) ? why.blocker : input.blocker,
      evidence: isBlank(input.evidence) ? why.evidence : input.evidence,
      recommendedNext: isBlank(input.recommendedNext) ? why.recommended_next : input.recommendedNext,
    };
  }
  const totals = state ? addSpent(state.spent, spent.delta) : null;
  const overTotals = totals ? spentTotalsOutOfRange(totals) : [];
  if (overTotals.length > 0)
    return refuse(
      EXIT.usage,
      overTotals.map((message) => ({ message, code: 'spent-out-of-range' })),
    );
  const elapsed = state ? elapsedMs(ledger.opened_at, input.now) : 0;
  if (state && totals) {
    core.budgetReached = reachedCaps({
      caps: state.caps,
      spent: totals,
      elapsed_ms: elapsed,
      review: state.review,
      iteration: epochSummary(records, currentEpoch(ledger)).records + 1,
    });
  }
  const result = iterate(ledger, core, records);
  if (isRefusal(result)) return result;

  const record: IterationRecord & Record<string, unknown> = {
    ...result.record,
    reported_outcome: input.outcome,
  };
  const unproven = completionFindings(record, state, { noOp: noOp !== null, termination });
  if (unproven.length > 0) return refuse(EXIT.malformed, unproven);
  if (termination !== null) {
    record.termination_reason = termination;
    record.termination_signal = rawTermination;
  }
  if (noOp) record.no_op = noOp;
  if (state) {
    record.spent = spent.delta;
    if (record.stall === 'budget-stop') record.budget_reached = core.budgetReached;
  }
  if (state || noOp || termination)
    record.loop_status = loopStatusOf(record, { noOp: noOp !== null, termination });
  const sorted = sortKeysDeep(record);
  const next: EngineeringLedger = {
    ...result.ledger,
    iterations: [...result.ledger.iterations.slice(0, -1), sorted],
  };
  if (state && totals) next.engineering = sortKeysDeep({ ...state, spent: totals, elapsed_ms: elapsed });
  return { ledger: next, record: sorted };
}
