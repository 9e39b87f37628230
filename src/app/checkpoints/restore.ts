// `checkpoint restore`: puts the workspace's files back as iteration N's checkpoint has them.
// Refused (engine rules) mid-merge or mid-rebase, and unless --force when HEAD has moved or the
// index holds staged changes. A safety checkpoint of the workspace is taken first; under the
// ledger's lock the `pause` iteration is decided, the safety ref created, the files written,
// and the record (carrying the safety checkpoint, so the restore can itself be undone) saved.
// Ignored files are in neither tree, so a restore never writes or removes one.
import { applyRestore, existsInWorkTree, restoreFacts, treeChanges } from '../../drivers/checkpoints/restore';
import { createRef } from '../../drivers/checkpoints/refs';
import { takeSnapshot } from '../../drivers/checkpoints/snapshot';
import { openWorkspace } from '../../drivers/checkpoints/workspace';
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
import { checkpointOf, liveCommit, sessionCheckpoints } from './checkpoints';
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
    const cap = maxFileBytes(process.env.LOOP_LEDGER_CHECKPOINT_MAX_MB);
    if (typeof cap !== 'number') throw new Refused(EXIT.usage, [cap.problem]);
    const target = checkpointOf(sessionCheckpoints(root, session), session, input.iteration);
    const step = <T>(fn: () => T) => checkpointStep('checkpoint restore', fn);
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
    const base = { session, restored: input.iteration, ...plan };
    if (input.dryRun) return { exitCode: 0, payload: { ...base, dry_run: true }, findings: [] };
    return appendToLedger(
      root,
      session,
      (ledger, records) => {
        const note =
          `restored the workspace to iteration ${input.iteration}: ${plan.write.length} file(s) written, ` +
          `${plan.remove.length} removed; the workspace before the restore is this iteration's checkpoint`;
        const result = iterateEngineering(ledger, { outcome: 'pause', note, now: input.now }, records);
        if (isRefusal(result)) return { result: fromRefusal<RestorePayload>(result) };
        const ref = checkpointRef(session, result.record.epoch, result.record.n);
        if ('problem' in ref) throw new Refused(EXIT.usage, [ref.problem]);
        step(() => createRef(ws, ref.ref, safety.commit));
        step(() => applyRestore(ws, commit, plan.write, plan.remove));
        const next = withCheckpoint(result.ledger, result.record, {
          commit: safety.commit,
          ref: ref.ref,
          head: safety.head,
          shadow: ws.shadow,
          excluded: safety.excluded,
        });
        const payload = { ...base, dry_run: false, recorded: result.record.n, safety_ref: ref.ref };
        return { write: next.ledger, result: { exitCode: 0, payload, findings: [] } };
      },
      lock,
    );
  });
}
