// The operations both shells run: each reads and writes through the store, decides through the
// engine, and returns an Outcome. The CLI maps argv onto these; the extension maps quick-input
// answers and webview messages onto the same calls, so no rule is implemented twice.
import type { BriefInput, BriefPacket, DiffInput, DiffText } from '../../engine/brief';
import type { CloseInput } from '../../engine/close';
import type { EngineeringIterateInput } from '../../engine/engineering/iterate';
import { isRefusal } from '../../engine/refusal';
import type { RecordsSummary } from '../../engine/records-summary';
import type { ResumePayload } from '../../engine/resume';
import { score } from '../../engine/score-command';
import { status, type StatusPayload } from '../../engine/status';
import type { Evaluation, IterationRecord, Ledger } from '../../engine/types';
import { listSessions, type SessionSummary } from '../../store';
import { appendToLedger, loadLedger, loadLedgerSummarised, requireLedger, updateLedger } from './access';
import type { LockOptions } from './lock-options';
import { briefStep, closeStep, iterateStep, resumeStep, type ClosePayload } from './steps';
import { fromRefusal, ledgerFile, operation, type Outcome } from '../outcome';

export type { Outcome } from '../outcome';
export type { ClosePayload } from './steps';

export function iterateOp(
  root: string,
  session: string,
  input: EngineeringIterateInput,
  lock: LockOptions = {},
): Outcome<IterationRecord> {
  return operation(ledgerFile(root, session), () => appendToLedger(root, session, iterateStep(input), lock));
}

export interface BriefOpInput<Diff extends DiffInput = BriefInput> {
  /** Its text, or (the CLI, for a big diff) its bytes: see DiffInput. */
  diff: Diff;
  verification: BriefInput;
  changeScope?: BriefInput;
  /** Where the workspace root sits in the diff's repository (see BriefInputs.ownPrefix). */
  ownPrefix?: string;
}

export function briefOp(
  root: string,
  session: string,
  input: BriefOpInput,
  lock?: LockOptions,
): Outcome<BriefPacket>;
export function briefOp(
  root: string,
  session: string,
  input: BriefOpInput<DiffInput>,
  lock?: LockOptions,
): Outcome<BriefPacket<DiffText>>;
export function briefOp(
  root: string,
  session: string,
  input: BriefOpInput<DiffInput>,
  lock: LockOptions = {},
): Outcome<BriefPacket<DiffText>> {
  return operation(ledgerFile(root, session), () =>
    updateLedger(
      root,
      session,
      (read, location) => briefStep(input)(requireLedger(read, location, session)),
      lock,
    ),
  );
}

export function scoreOp(root: string, session: string, measures: string[]): Outcome<Evaluation> {
  return operation(ledgerFile(root, session), () => scoreOutcome(loadLedger(root, session), measures));
}

export function statusOp(root: string, session: string): Outcome<StatusPayload> {
  return operation(ledgerFile(root, session), () => {
    const { ledger, records } = loadLedgerSummarised(root, session);
    return statusOutcome(ledger, records);
  });
}

/** `score` on a ledger already read (shared by scoreOp and the extension's scoreOpAsync). */
export function scoreOutcome(ledger: Ledger, measures: string[]): Outcome<Evaluation> {
  const result = score(ledger, measures);
  if (isRefusal(result)) return fromRefusal<Evaluation>(result);
  return { exitCode: result.exitCode, payload: result.payload, findings: [] };
}

/**
 * `status` on a ledger already read (shared by statusOp and the extension's statusOpAsync).
 * `records`: the old records' summary when they were not parsed (engine/status.ts).
 */
export function statusOutcome(ledger: Ledger, records?: RecordsSummary): Outcome<StatusPayload> {
  const { payload, exitCode } = status(ledger, records);
  return { exitCode, payload, findings: [] };
}

export function resumeOp(root: string, session: string, lock: LockOptions = {}): Outcome<ResumePayload> {
  return operation(ledgerFile(root, session), () =>
    updateLedger(root, session, (read, location) => resumeStep(requireLedger(read, location, session)), lock),
  );
}

export function closeOp(
  root: string,
  session: string,
  input: CloseInput,
  lock: LockOptions = {},
): Outcome<ClosePayload> {
  return operation(ledgerFile(root, session), () =>
    updateLedger(
      root,
      session,
      (read, location) => closeStep(input)(requireLedger(read, location, session)),
      lock,
    ),
  );
}

export function listOp(root: string): Outcome<{ root: string; sessions: SessionSummary[] }> {
  return operation(() => ({ exitCode: 0, payload: { root, sessions: listSessions(root) }, findings: [] }));
}
