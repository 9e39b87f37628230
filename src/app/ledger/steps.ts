// The engine step of each writing operation, apart from how its ledger is read and saved: the
// file store runs it under the ledger's lock (operations.ts), the PostgreSQL store inside a
// transaction holding the session's row (store/pg). One rule, whichever store holds the ledger.
import { brief, type BriefPacket, type DiffInput, type DiffText } from '../../engine/brief';
import type { BriefInputs } from '../../engine/brief/command';
import type { CloseInput } from '../../engine/close';
import { withReviewedDiff } from '../../engine/engineering/budget';
import { closeEngineering } from '../../engine/engineering/close';
import { iterateEngineering, type EngineeringIterateInput } from '../../engine/engineering/iterate';
import type { RecordsSummary } from '../../engine/records-summary';
import { isRefusal } from '../../engine/refusal';
import { resume, type ResumePayload } from '../../engine/resume';
import type { IterationRecord, Ledger, Outcome as LoopOutcome } from '../../engine/types';
import { fromRefusal, type Outcome } from '../outcome';

/** What a step decides: the ledger to save (none: nothing is written) and the outcome to report. */
export interface StepResult<P> {
  write?: Ledger;
  result: Outcome<P>;
}

/**
 * A step over a ledger that exists. `records`, when given, is the summary of the old records;
 * then `ledger.iterations` may be empty, and an appending step's `write.iterations` holds just
 * its new records (see access.ts appendToLedger).
 */
export type LedgerStep<P> = (ledger: Ledger, records?: RecordsSummary) => StepResult<P>;

export interface ClosePayload {
  session: string;
  status: 'closed';
  final_outcome: LoopOutcome;
}

export function iterateStep(input: EngineeringIterateInput): LedgerStep<IterationRecord> {
  return (ledger, records) => {
    // The core rules, plus budgets, NO_OP and termination on a loop-engineering ledger.
    const result = iterateEngineering(ledger, input, records);
    if (isRefusal(result)) return { result: fromRefusal<IterationRecord>(result) };
    return { write: result.ledger, result: { exitCode: 0, payload: result.record, findings: [] } };
  };
}

export function resumeStep(ledger: Ledger): StepResult<ResumePayload> {
  const result = resume(ledger);
  if (isRefusal(result)) return { result: fromRefusal<ResumePayload>(result) };
  return {
    write: result.changed ? result.ledger : undefined,
    result: { exitCode: 0, payload: result.payload, findings: [] },
  };
}

export function closeStep(input: CloseInput): LedgerStep<ClosePayload> {
  return (ledger) => {
    const result = closeEngineering(ledger, input);
    if (isRefusal(result)) return { result: fromRefusal<ClosePayload>(result) };
    return { write: result.ledger, result: { exitCode: 0, payload: result.payload, findings: [] } };
  };
}

/** Assembles the critic packet and arms it as the ledger's single pending brief. */
export function briefStep(input: BriefInputs<DiffInput>): LedgerStep<BriefPacket<DiffText>> {
  return (ledger) => {
    const result = brief(ledger, input);
    if (isRefusal(result)) return { result: fromRefusal<BriefPacket<DiffText>>(result) };
    // A loop-engineering ledger keeps the diff's size: its review budget caps it.
    const write = withReviewedDiff(
      result.ledger,
      result.payload.diff,
      result.payload.scope.diff_paths.length,
    );
    return { write, result: { exitCode: 0, payload: result.payload, findings: [] } };
  };
}
