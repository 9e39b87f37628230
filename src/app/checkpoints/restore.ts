// `checkpoint restore`: puts the workspace's files back as iteration N's checkpoint has them.
// Refused (engine rules) mid-merge or mid-rebase, and unless --force when HEAD has moved or the
// index holds staged changes. A safety checkpoint of the workspace is taken first; under the
// ledger's lock the `pause` iteration is decided, the safety ref created, the files written,
// and the record (carrying the safety checkpoint, so the restore can itself be undone) saved.
// Ignored files are in neither tree, so a restore never writes or removes one.
import { applyRestore, existsInWorkTree, restoreFacts, treeChanges } from '../../drivers/checkpoints/restore';
import { createRef } from '../../drivers/checkpoints/refs';
import { takeSnapshot } from '../../drivers/checkpoints/snapshot';
import { openWorkspace, type CheckpointWorkspace } from '../../drivers/checkpoints/workspace';
import type { Snapshot } from '../../drivers/checkpoints/snapshot';
import {
  checkpointRef,
  maxFileBytes,
  restorePlan,
  restoreRefusals,
  withCheckpoint,
  type RestorePlan,
} from '../../engine/checkpoints/rules';
import { iterateEngineering } from '../../engine/engineering/iterate';
import { EXIT, isRefusal } from '../../engine/refusal';
import { appendToLedger } from '../ledger/access';
import type { LockOptions } from '../ledger/lock-options';
import { fromRefusal, ledgerFile, operation, Refused, type Outcome } from '../outcome';
import type { IterationRecord, Ledger } from '../../engine/types';
import { checkpointOf, liveCommit, sessionCheckpoints, type SessionCheckpoint } from './checkpoints';
import { pendingHolds, type TakenCheckpoint } from './iteration-checkpoint';
import { checkpointStep } from './errors';

export interface RestoreInput {
  iteration: number;
  force: boolean;
  dryRun: boolean;
  now: Date;
}

export interface RestorePayload extends RestorePlan {
  session: string;
  restored: number;
  dry_run: boolean;
  /** The `pause` iteration recorded (absent with --dry-run). */
  recorded?: number;
  /** The checkpoint of the workspace as it was just before (absent with --dry-run). */
  safety_ref?: string;
}

export function checkpointRestoreOp(
  root: string,
  session: string,
  input: RestoreInput,
  lock: LockOptions = {},
): Outcome<RestorePayload> {
  return operation(ledgerFile(root, session), () => {
    const prepared = prepareRestore(root, session, sessionCheckpoints(root, session), input);
    if (input.dryRun) return dryRunOutcome(prepared);
    return appendToLedger(
      root,
      session,
      (ledger, records) => {
        const result = iterateEngineering(ledger, pauseInput(prepared, input), records);
        if (isRefusal(result)) return { result: fromRefusal<RestorePayload>(result) };
        const next = restoreRecorded(prepared, session, result.ledger, result.record);
        return { write: next.ledger, result: restoredOutcome(prepared, next.record) };
      },
      lock,
    );
  });
}

/** What a restore found before it writes anything: the target, the safety checkpoint, the plan. */
export interface PreparedRestore {
  ws: CheckpointWorkspace;
  commit: string;
  safety: Snapshot;
  plan: RestorePlan;
  base: Omit<RestorePayload, 'dry_run'>;
}

const step = <T>(fn: () => T) => checkpointStep('checkpoint restore', fn);

/**
 * The refusals (mid-merge, HEAD moved, staged changes), then the safety checkpoint of the
 * workspace as it is and the files that would change. `all`: the checkpoints the ledger names.
 */
export function prepareRestore(
  root: string,
  session: string,
  all: SessionCheckpoint[],
  input: RestoreInput,
): PreparedRestore {
  const cap = maxFileBytes(process.env.LOOP_LEDGER_CHECKPOINT_MAX_MB);
  if (typeof cap !== 'number') throw new Refused(EXIT.usage, [cap.problem]);
  const target = checkpointOf(all, session, input.iteration);
  const ws = step(() => openWorkspace(root));
  const commit = step(() => liveCommit(ws, target, session));
  const refusals = restoreRefusals(step(() => restoreFacts(ws, target.head, input.force)));
  if (refusals.length > 0) throw new Refused(EXIT.wrongState, refusals);
  const safety = step(() =>
    takeSnapshot(ws, {
      maxFileBytes: cap,
      now: input.now,
      message: `loop-ledger checkpoint ${session} (before restore)`,
    }),
  );
  const plan = restorePlan(
    step(() => treeChanges(ws, safety.commit, commit)),
    ws.loopPrefix,
    (p) => existsInWorkTree(ws, p),
  );
  return { ws, commit, safety, plan, base: { session, restored: input.iteration, ...plan } };
}

export function dryRunOutcome(prepared: PreparedRestore): Outcome<RestorePayload> {
  return { exitCode: 0, payload: { ...prepared.base, dry_run: true }, findings: [] };
}

/** The `pause` iteration a restore records. */
export function pauseInput(prepared: PreparedRestore, input: RestoreInput) {
  const { plan } = prepared;
  const note =
    `restored the workspace to iteration ${input.iteration}: ${plan.write.length} file(s) written, ` +
    `${plan.remove.length} removed; the workspace before the restore is this iteration's checkpoint`;
  return { outcome: 'pause' as const, note, now: input.now };
}

/**
 * In the write that records the `pause` iteration: the safety checkpoint's ref made (unless it
 * was made ahead for this very record, `pending`), the files written, and the record given the
 * safety checkpoint, so restoring that iteration undoes the restore.
 */
export function restoreRecorded(
  prepared: PreparedRestore,
  session: string,
  ledger: Ledger,
  record: IterationRecord,
  pending?: TakenCheckpoint,
): { ledger: Ledger; record: IterationRecord } {
  const { ws, safety, commit, plan } = prepared;
  const ref = checkpointRef(session, record.epoch, record.n);
  if ('problem' in ref) throw new Refused(EXIT.usage, [ref.problem]);
  if (pending === undefined || 'skipped' in pending || !pendingHolds(pending, ref.ref))
    step(() => createRef(ws, ref.ref, safety.commit));
  step(() => applyRestore(ws, commit, plan.write, plan.remove));
  return withCheckpoint(ledger, record, {
    commit: safety.commit,
    ref: ref.ref,
    head: safety.head,
    shadow: ws.shadow,
    excluded: safety.excluded,
  });
}

export function restoredOutcome(prepared: PreparedRestore, record: IterationRecord): Outcome<RestorePayload> {
  const payload = {
    ...prepared.base,
    dry_run: false,
    recorded: record.n,
    safety_ref: (record as { checkpoint?: { ref?: string } }).checkpoint?.ref,
  };
  return { exitCode: 0, payload, findings: [] };
}
