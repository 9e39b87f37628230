// The checkpoint `run`, `repeat`, `wo run` (and an `iterate` whose contract asks for one) take by
// default, in two steps around the ledger's lock: the workspace's commit is taken first (objects
// only, outside the lock), then, in the same locked write as the iteration, its ref is created
// and the record gets its `checkpoint` key. A checkpoint that cannot be taken (no git, a refused
// LFS filter, a session id git cannot name, any git failure) never stops the loop: the record
// lands with `checkpoint_skipped` saying why instead.
// `run` and `repeat` take theirs with the asynchronous variant: from VS Code they run in the
// extension host, whose thread must not wait on git while the workspace is read.
import { runAsync, runSync, type Program } from '../../drivers/checkpoints/program';
import { snapshotProgram, type Snapshot } from '../../drivers/checkpoints/snapshot';
import { createRef } from '../../drivers/checkpoints/refs';
import { openWorkspaceProgram, type CheckpointWorkspace } from '../../drivers/checkpoints/workspace';
import {
  checkpointRef,
  maxFileBytes,
  withCheckpoint,
  withSkippedCheckpoint,
} from '../../engine/checkpoints/rules';
import type { Ledger } from '../../engine/types';

export type TakenCheckpoint = { ws: CheckpointWorkspace; snap: Snapshot } | { skipped: string };

/** The workspace's commit for the iteration about to be recorded, or why there is none. */
/** How a checkpoint is taken; `maxFileMB` overrides LOOP_LEDGER_CHECKPOINT_MAX_MB (the size cap). */
export interface CheckpointOptions {
  maxFileMB?: number;
}

export function takeIterationCheckpoint(root: string, session: string, now: Date): TakenCheckpoint {
  return runSync(iterationCheckpointProgram(root, session, now, {}));
}

/** `takeIterationCheckpoint` without blocking the thread (the same git calls). */
export function takeIterationCheckpointAsync(
  root: string,
  session: string,
  now: Date,
  options: CheckpointOptions = {},
): Promise<TakenCheckpoint> {
  return runAsync(iterationCheckpointProgram(root, session, now, options));
}

function* iterationCheckpointProgram(
  root: string,
  session: string,
  now: Date,
  options: CheckpointOptions,
): Program<TakenCheckpoint> {
  const named = checkpointRef(session, 0, 1);
  if ('problem' in named) return { skipped: named.problem };
  const cap = maxFileBytes(
    options.maxFileMB === undefined ? process.env.LOOP_LEDGER_CHECKPOINT_MAX_MB : String(options.maxFileMB),
  );
  if (typeof cap !== 'number') return { skipped: cap.problem };
  try {
    const ws = yield* openWorkspaceProgram(root);
    const snap = yield* snapshotProgram(ws, {
      maxFileBytes: cap,
      now,
      message: `loop-ledger checkpoint ${session}`,
    });
    return { ws, snap };
  } catch (error) {
    return { skipped: reason(error) };
  }
}

/**
 * `after` with the iteration it added over `before` carrying the checkpoint (its ref created
 * now, under the caller's lock) or why it has none. A write that added no iteration (a close,
 * a refusal) is returned as it is, and no ref is made.
 */
export function recordIterationCheckpoint(
  before: Ledger,
  after: Ledger,
  taken: TakenCheckpoint,
  session: string,
): Ledger {
  if (after.iterations.length <= before.iterations.length) return after;
  const record = after.iterations[after.iterations.length - 1];
  if (record === undefined) return after;
  if ('skipped' in taken) return withSkippedCheckpoint(after, record, taken.skipped).ledger;
  const ref = checkpointRef(session, record.epoch, record.n);
  if ('problem' in ref) return withSkippedCheckpoint(after, record, ref.problem).ledger;
  try {
    createRef(taken.ws, ref.ref, taken.snap.commit);
  } catch (error) {
    return withSkippedCheckpoint(after, record, reason(error)).ledger;
  }
  return withCheckpoint(after, record, {
    commit: taken.snap.commit,
    ref: ref.ref,
    head: taken.snap.head,
    shadow: taken.ws.shadow,
    excluded: taken.snap.excluded,
  }).ledger;
}

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.trim().split('\n')[0] ?? '').slice(0, 500) || 'the checkpoint could not be taken';
}
