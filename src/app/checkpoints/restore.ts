// `checkpoint restore`: puts the workspace's files back as iteration N's checkpoint has them.
// Refused (engine rules) mid-merge or mid-rebase, and unless --force when HEAD has moved or the
// index holds staged changes. The whole restore holds the workspace's restore lock (one restore
// at a time), not the ledger's: a safety checkpoint of the workspace is taken, its ref created
// for the number the `pause` record is expected to get, and only then are the files written, so
// a restore killed at any moment after it touched a file leaves that ref holding the workspace
// as it was. Under the ledger's lock the record is decided and saved, carrying the safety
// checkpoint (so the restore can itself be undone); no git runs there unless another writer took
// the expected number first (then the ref is made there). When the ref cannot be made ahead (a
// leftover of a killed writer holds that name), the ref and the files are written under the
// ledger's lock instead, as the record's number is then known.
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
import { appendToLedger, ledgerWritePath, loadLedger } from '../ledger/access';
import type { LockOptions } from '../ledger/lock-options';
import { fromRefusal, ledgerFile, operation, Refused, type Outcome } from '../outcome';
import type { IterationRecord, Ledger } from '../../engine/types';
import { checkpointOf, checkpointsOfLedger, liveCommit, type SessionCheckpoint } from './checkpoints';
import {
  pendingHolds,
  releasePendingRef,
  withPendingRefSync,
  type HeldCheckpoint,
  type TakenCheckpoint,
} from './iteration-checkpoint';
import { withRestoreLock } from './restore-lock';
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
  const prepare = (ledger: Ledger) =>
    prepareRestore(root, session, checkpointsOfLedger(ledger, session), input);
  return operation(ledgerFile(root, session), () => {
    // A dry run writes nothing, so it takes no lock.
    if (input.dryRun) return dryRunOutcome(prepare(loadLedger(root, session)));
    // Before the restore lock and any file written ahead of the ledger's lock: a ledger that
    // could not be written (its folder a link out of the root) refuses with the workspace untouched.
    ledgerWritePath(root, session);
    return withRestoreLock(root, () => {
      const ledger = loadLedger(root, session);
      const prepared = prepare(ledger);
      // The engine's answer on the ledger as it is now: a pause it refuses writes no file.
      const expected = iterateEngineering(ledger, pauseInput(prepared, input), undefined);
      if (isRefusal(expected)) return fromRefusal<RestorePayload>(expected);
      const pending = withPendingRefSync({ ws: prepared.ws, snap: prepared.safety }, session, {
        epoch: expected.record.epoch,
        n: expected.record.n,
      });
      const ahead = pending.pending !== undefined;
      if (ahead)
        step(() => applyRestore(prepared.ws, prepared.commit, prepared.plan.write, prepared.plan.remove));
      let recorded: IterationRecord | undefined;
      try {
        const outcome = appendToLedger(
          root,
          session,
          (now, records) => {
            const result = iterateEngineering(now, pauseInput(prepared, input), records);
            if (isRefusal(result)) return { result: fromRefusal<RestorePayload>(result) };
            const next = restoreRecorded(prepared, session, result.ledger, result.record, pending, !ahead);
            recorded = next.record;
            return { write: next.ledger, result: restoredOutcome(prepared, next.record) };
          },
          lock,
        );
        if (ahead && recorded === undefined) return writtenUnrecorded(outcome, pending);
        return outcome;
      } catch (error) {
        if (ahead && recorded === undefined) throw unrecorded(error, pending);
        throw error;
      } finally {
        // The ref made ahead stays when the files were written and no record took it: it is
        // then the only way back to the workspace as it was.
        if (!ahead || recorded !== undefined) releasePendingRef(pending, recorded);
      }
    });
  });
}

/**
 * The files were written but the ledger refused the `pause` record (another writer closed the
 * loop in between, or the ledger could not be written): say so, and where the workspace as it was
 * is kept.
 */
function writtenUnrecorded(
  outcome: Outcome<RestorePayload>,
  pending: HeldCheckpoint,
): Outcome<RestorePayload> {
  const findings = [...outcome.findings, { message: keptNote(pending) }];
  return { exitCode: outcome.exitCode === 0 ? EXIT.wrongState : outcome.exitCode, findings };
}

function unrecorded(error: unknown, pending: HeldCheckpoint): Refused {
  if (error instanceof Refused) return new Refused(error.exitCode, [...error.findings, keptNote(pending)]);
  const why = error instanceof Error ? error.message : String(error);
  return new Refused(EXIT.system, [why, keptNote(pending)]);
}

function keptNote(pending: HeldCheckpoint): string {
  return `the files were restored but no pause iteration was recorded; the workspace as it was before the restore is the checkpoint ${pending.pending?.ref} (commit ${pending.snap.commit})`;
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
 * was made ahead for this very record, `pending`), the files written (unless written already,
 * after the ref made ahead: `writeFiles` false), and the record given the safety checkpoint, so
 * restoring that iteration undoes the restore.
 */
export function restoreRecorded(
  prepared: PreparedRestore,
  session: string,
  ledger: Ledger,
  record: IterationRecord,
  pending?: TakenCheckpoint,
  writeFiles = true,
): { ledger: Ledger; record: IterationRecord } {
  const { ws, safety, commit, plan } = prepared;
  const ref = checkpointRef(session, record.epoch, record.n);
  if ('problem' in ref) throw new Refused(EXIT.usage, [ref.problem]);
  if (pending === undefined || 'skipped' in pending || !pendingHolds(pending, ref.ref))
    step(() => createRef(ws, ref.ref, safety.commit));
  if (writeFiles) step(() => applyRestore(ws, commit, plan.write, plan.remove));
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
