// `checkpoint list|diff|prune`: read-only views of a session's checkpoints, and dropping old refs.
import { DIFF_OPTIONS } from '../../drivers/git/git';
import { gitOk } from '../../drivers/checkpoints/git';
import { deleteRef, sessionRefs } from '../../drivers/checkpoints/refs';
import { takeSnapshot } from '../../drivers/checkpoints/snapshot';
import { openWorkspace } from '../../drivers/checkpoints/workspace';
import { maxFileBytes, type ExcludedPath } from '../../engine/checkpoints/rules';
import { EXIT } from '../../engine/refusal';
import { ledgerFile, operation, Refused, type Outcome } from '../outcome';
import { loadLedger } from '../ledger/access';
import {
  checkpointOf,
  checkpointsOfLedger,
  liveCommit,
  sessionCheckpoints,
  type SessionCheckpoint,
} from './checkpoints';
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

export interface CheckpointList {
  session: string;
  checkpoints: CheckpointRow[];
}

export function checkpointListOp(root: string, session: string): Outcome<CheckpointList> {
  return operation(ledgerFile(root, session), () => listOf(root, session, sessionCheckpoints(root, session)));
}

/** `list` over the checkpoints a ledger names (from the files or a store), against this workspace's refs. */
export function listOf(root: string, session: string, all: SessionCheckpoint[]): Outcome<CheckpointList> {
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
}

/** How `checkpoint diff` (and a brief between two checkpoints) asks git for the diff. */
export const CHECKPOINT_DIFF_OPTIONS = [...DIFF_OPTIONS, '--no-renames', '--binary'] as const;

export interface DiffRange {
  /** Alone: that iteration's checkpoint against the workspace now. */
  iteration?: number;
  from?: number;
  to?: number;
  now: Date;
}

/** A unified diff between two checkpoints, or one checkpoint and the workspace now. */
export function checkpointDiffOp(root: string, session: string, range: DiffRange): Outcome<{ diff: string }> {
  return operation(ledgerFile(root, session), () =>
    diffOf(root, session, sessionCheckpoints(root, session), range),
  );
}

/** `diff` over the checkpoints a ledger names. */
export function diffOf(
  root: string,
  session: string,
  all: SessionCheckpoint[],
  range: DiffRange,
): Outcome<{ diff: string }> {
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
    const diff = gitOk(ws.place, ['diff', ...CHECKPOINT_DIFF_OPTIONS, '--end-of-options', from, to, '--']);
    return { exitCode: 0, payload: { diff: diff.toString('utf8') }, findings: [] };
  });
}

/** Keeps the `keep` newest checkpoint refs of the session and deletes the others. */
export interface PrunePayload {
  session: string;
  kept: string[];
  pruned: string[];
}

export function checkpointPruneOp(root: string, session: string, keep: number): Outcome<PrunePayload> {
  return operation(ledgerFile(root, session), () => {
    const ledger = loadLedger(root, session);
    return pruneOf(root, session, checkpointsOfLedger(ledger, session), ledger.iterations.length, keep);
  });
}

/**
 * Keeps the `keep` newest of the refs the records name and deletes the others, and every ref no
 * record names at a number the session has already recorded (left by a writer killed between its
 * ref and its record, or refused after making it). A ref past the newest record may belong to
 * an iterate still running, and stays. `count`: how many records the session has.
 */
export function pruneOf(
  root: string,
  session: string,
  all: SessionCheckpoint[],
  count: number,
  keep: number,
): Outcome<PrunePayload> {
  if (!Number.isSafeInteger(keep) || keep < 0)
    throw new Refused(EXIT.usage, ['--keep must be a whole number, 0 or more']);
  return checkpointStep('checkpoint prune', () => {
    const ws = openWorkspace(root);
    const recorded = new Set(all.map((c) => `${c.commit} ${c.ref}`));
    const refs = sessionRefs(ws, session)
      .map((r) => ({ ...r, order: orderOf(r.ref) }))
      .filter((r): r is typeof r & { order: [number, number] } => r.order !== null)
      .sort((a, b) => b.order[0] - a.order[0] || b.order[1] - a.order[1]);
    const orphan = (r: (typeof refs)[number]) => !recorded.has(`${r.commit} ${r.ref}`) && r.order[1] <= count;
    const named = refs.filter((r) => !orphan(r));
    const pruned = [...named.slice(keep), ...refs.filter(orphan)];
    for (const r of pruned) deleteRef(ws, r.ref, r.commit);
    return {
      exitCode: 0,
      payload: { session, kept: named.slice(0, keep).map((r) => r.ref), pruned: pruned.map((r) => r.ref) },
      findings: [],
    };
  });
}

/** `[epoch, n]` from a ref ending in `/<epoch>-<n>`; null for any other name. */
function orderOf(ref: string): [number, number] | null {
  const m = /\/(\d+)-(\d+)$/.exec(ref);
  return m ? [Number(m[1]), Number(m[2])] : null;
}
