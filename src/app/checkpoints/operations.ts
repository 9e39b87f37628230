// `checkpoint list|diff|prune`: read-only views of a session's checkpoints, and dropping old refs.
import { DIFF_OPTIONS } from '../../drivers/git/git';
import { gitOk } from '../../drivers/checkpoints/git';
import { deleteRef, sessionRefs } from '../../drivers/checkpoints/refs';
import { takeSnapshot } from '../../drivers/checkpoints/snapshot';
import { openWorkspace } from '../../drivers/checkpoints/workspace';
import { maxFileBytes, type ExcludedPath } from '../../engine/checkpoints/rules';
import { EXIT } from '../../engine/refusal';
import { ledgerFile, operation, Refused, type Outcome } from '../outcome';
import { checkpointOf, liveCommit, sessionCheckpoints } from './checkpoints';
import { checkpointStep } from './errors';

export interface CheckpointRow {
  n: number;
  epoch: number;
  commit: string;
  ref: string;
  /** False once `prune` dropped the ref. */
  present: boolean;
  excluded: ExcludedPath[];
}

export function checkpointListOp(
  root: string,
  session: string,
): Outcome<{ session: string; checkpoints: CheckpointRow[] }> {
  return operation(ledgerFile(root, session), () => {
    const all = sessionCheckpoints(root, session);
    const live =
      all.length === 0
        ? new Map<string, string>()
        : checkpointStep('checkpoint list', () => {
            const ws = openWorkspace(root);
            return new Map(sessionRefs(ws, session).map((r) => [r.ref, r.commit]));
          });
    const checkpoints = all.map((c) => ({
      n: c.n,
      epoch: c.epoch,
      commit: c.commit,
      ref: c.ref,
      present: live.get(c.ref) === c.commit,
      excluded: c.excluded,
    }));
    return { exitCode: 0, payload: { session, checkpoints }, findings: [] };
  });
}

export interface DiffRange {
  /** Alone: that iteration's checkpoint against the workspace now. */
  iteration?: number;
  from?: number;
  to?: number;
  now: Date;
}

/** A unified diff between two checkpoints, or one checkpoint and the workspace now. */
export function checkpointDiffOp(root: string, session: string, range: DiffRange): Outcome<{ diff: string }> {
  return operation(ledgerFile(root, session), () => {
    const all = sessionCheckpoints(root, session);
    return checkpointStep('checkpoint diff', () => {
      const ws = openWorkspace(root);
      let from: string;
      let to: string;
      if (range.from !== undefined && range.to !== undefined && range.iteration === undefined) {
        from = liveCommit(ws, checkpointOf(all, session, range.from), session);
        to = liveCommit(ws, checkpointOf(all, session, range.to), session);
      } else if (range.iteration !== undefined && range.from === undefined && range.to === undefined) {
        from = liveCommit(ws, checkpointOf(all, session, range.iteration), session);
        const cap = maxFileBytes(process.env.LOOP_LEDGER_CHECKPOINT_MAX_MB);
        if (typeof cap !== 'number') throw new Refused(EXIT.usage, [cap.problem]);
        to = takeSnapshot(ws, { maxFileBytes: cap, now: range.now, message: 'loop-ledger workspace' }).commit;
      } else {
        throw new Refused(EXIT.usage, ['checkpoint diff: give --iteration N, or --from N and --to M']);
      }
      const diff = gitOk(ws.place, [
        'diff',
        ...DIFF_OPTIONS,
        '--no-renames',
        '--binary',
        '--end-of-options',
        from,
        to,
        '--',
      ]);
      return { exitCode: 0, payload: { diff: diff.toString('utf8') }, findings: [] };
    });
  });
}

/** Keeps the `keep` newest checkpoint refs of the session and deletes the others. */
export function checkpointPruneOp(
  root: string,
  session: string,
  keep: number,
): Outcome<{ session: string; kept: string[]; pruned: string[] }> {
  return operation(ledgerFile(root, session), () => {
    if (!Number.isSafeInteger(keep) || keep < 0)
      throw new Refused(EXIT.usage, ['--keep must be a whole number, 0 or more']);
    sessionCheckpoints(root, session); // the ledger must be readable: this is its session
    return checkpointStep('checkpoint prune', () => {
      const ws = openWorkspace(root);
      const refs = sessionRefs(ws, session)
        .map((r) => ({ ...r, order: orderOf(r.ref) }))
        .filter((r): r is typeof r & { order: [number, number] } => r.order !== null)
        .sort((a, b) => b.order[0] - a.order[0] || b.order[1] - a.order[1]);
      const pruned = refs.slice(keep);
      for (const r of pruned) deleteRef(ws, r.ref, r.commit);
      return {
        exitCode: 0,
        payload: { session, kept: refs.slice(0, keep).map((r) => r.ref), pruned: pruned.map((r) => r.ref) },
        findings: [],
      };
    });
  });
}

/** `[epoch, n]` from a ref ending in `/<epoch>-<n>`; null for any other name. */
function orderOf(ref: string): [number, number] | null {
  const m = /\/(\d+)-(\d+)$/.exec(ref);
  return m ? [Number(m[1]), Number(m[2])] : null;
}
