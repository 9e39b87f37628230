// The checkpoint `run`, `repeat`, `wo run` (and an `iterate` whose contract asks for one) take by
// default, around the ledger's lock: the workspace's commit is taken first (objects only,
// outside the lock), then, still outside it, its ref is created for the iteration number the
// record is expected to get (read from the ledger without the lock), and in the locked write the
// record gets its `checkpoint` key. So the ref exists before the record that names it: a process
// killed between the two leaves a ref without a record, which the next iteration of that number
// replaces and `checkpoint prune` drops, never a record without its ref. No git runs under the
// lock unless that expectation was wrong (another writer recorded first): then the ref is created
// there, as before. A checkpoint that cannot be taken (no git, a refused LFS filter, a session id
// git cannot name, any git failure) never stops the loop: the record lands with
// `checkpoint_skipped` saying why instead.
// `run` and `repeat` take theirs with the asynchronous variant: from VS Code they run in the
// extension host, whose thread must not wait on git while the workspace is read.
import { runAsync, runSync, type Program } from '../../drivers/checkpoints/program';
import { snapshotProgram, type Snapshot } from '../../drivers/checkpoints/snapshot';
import {
  createRef,
  createRefIfAbsentProgram,
  deleteRefIfStill,
  looseRefCommit,
} from '../../drivers/checkpoints/refs';
import {
  openWorkspace,
  openWorkspaceProgram,
  type CheckpointWorkspace,
} from '../../drivers/checkpoints/workspace';
import { takeSnapshot } from '../../drivers/checkpoints/snapshot';
import {
  checkpointRef,
  maxFileBytes,
  withCheckpoint,
  withSkippedCheckpoint,
} from '../../engine/checkpoints/rules';
import { currentEpoch } from '../../engine/ledger-view';
import { EXIT } from '../../engine/refusal';
import type { IterationRecord, Ledger } from '../../engine/types';
import { loadLedgerSummarised } from '../ledger/access';
import { loadLedgerAsync } from '../ledger/read-operations-async';
import { Refused } from '../outcome';
import { checkpointStep } from './errors';

/** The record's place the ref was created for before the lock. */
export interface PendingRef {
  ref: string;
  epoch: number;
  n: number;
}

/** A checkpoint taken: its commit, and the ref made ahead of the lock when there is one. */
export interface HeldCheckpoint {
  ws: CheckpointWorkspace;
  snap: Snapshot;
  pending?: PendingRef;
}

export type TakenCheckpoint = HeldCheckpoint | { skipped: string };

/** The epoch and number the session's next record gets, as a read without the lock sees it. */
export interface NextRecord {
  epoch: number;
  n: number;
}

/** How a checkpoint is taken; `maxFileMB` overrides LOOP_LEDGER_CHECKPOINT_MAX_MB (the size cap). */
export interface CheckpointOptions {
  maxFileMB?: number;
}

/** The next record of `ledger` (its records counted, or their summary's count when not loaded). */
export function nextRecordOf(ledger: Ledger, count = ledger.iterations.length): NextRecord {
  return { epoch: currentEpoch(ledger), n: count + 1 };
}

export function nextFromFiles(root: string, session: string): NextRecord | null {
  try {
    const { ledger, records } = loadLedgerSummarised(root, session);
    return nextRecordOf(ledger, records?.count ?? ledger.iterations.length);
  } catch {
    return null; // the locked write says why it cannot read the ledger
  }
}

/**
 * The workspace's commit for the iteration about to be recorded, with its ref created for the
 * record's expected number, or why there is none. `next`: that number when the caller knows it
 * (a PostgreSQL store); by default read from the ledger file.
 */
export function takeIterationCheckpoint(
  root: string,
  session: string,
  now: Date,
  options: CheckpointOptions = {},
  next: () => NextRecord | null = () => nextFromFiles(root, session),
): TakenCheckpoint {
  const taken = runSync(iterationCheckpointProgram(root, session, now, options));
  if ('skipped' in taken) return taken;
  return runSync(withPendingRef(taken, session, next()));
}

/** nextFromFiles without blocking the thread. */
export function nextFromFilesAsync(root: string, session: string): Promise<NextRecord | null> {
  return loadLedgerAsync(root, session).then(
    (ledger) => nextRecordOf(ledger),
    () => null,
  );
}

/**
 * `takeIterationCheckpoint` without blocking the thread (the same git calls); `next` reads the
 * record's expected number where the ledger lives (the files, or a PostgreSQL store).
 */
export async function takeIterationCheckpointAsync(
  root: string,
  session: string,
  now: Date,
  options: CheckpointOptions,
  next: () => Promise<NextRecord | null>,
): Promise<TakenCheckpoint> {
  const taken = await runAsync(iterationCheckpointProgram(root, session, now, options));
  if ('skipped' in taken) return taken;
  return runAsync(withPendingRef(taken, session, await next()));
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
 * `taken` with its ref created for `next` when no such ref exists yet. A ref already there (a
 * killed writer's leftover, or another writer's expecting the same number) is left alone: the
 * locked write then creates the ref itself.
 */
export function withPendingRefSync(
  taken: { ws: CheckpointWorkspace; snap: Snapshot },
  session: string,
  next: NextRecord | null,
): HeldCheckpoint {
  return runSync(withPendingRef(taken, session, next));
}

function* withPendingRef(
  taken: { ws: CheckpointWorkspace; snap: Snapshot },
  session: string,
  next: NextRecord | null,
): Program<HeldCheckpoint> {
  if (next === null) return taken;
  const ref = checkpointRef(session, next.epoch, next.n);
  if ('problem' in ref) return taken;
  try {
    const created = yield* createRefIfAbsentProgram(taken.ws, ref.ref, taken.snap.commit);
    return created ? { ...taken, pending: { ref: ref.ref, ...next } } : taken;
  } catch {
    return taken;
  }
}

/**
 * `after` with the iteration it added over `before` carrying the checkpoint (its ref created
 * before the lock for this very record, or, when that expectation failed, now, under the
 * caller's lock) or why it has none. A write that added no iteration (a close, a refusal) is
 * returned as it is, and no ref is made.
 */
export function recordIterationCheckpoint(
  before: Ledger,
  after: Ledger,
  taken: TakenCheckpoint,
  session: string,
): Ledger {
  // (`before` loaded through its records' summary has none: then `after` holds only the new ones.)
  if (after.iterations.length <= before.iterations.length) return after;
  const record = after.iterations[after.iterations.length - 1];
  if (record === undefined) return after;
  if ('skipped' in taken) return withSkippedCheckpoint(after, record, taken.skipped).ledger;
  const ref = checkpointRef(session, record.epoch, record.n);
  if ('problem' in ref) return withSkippedCheckpoint(after, record, ref.problem).ledger;
  if (!pendingHolds(taken, ref.ref)) {
    try {
      createRef(taken.ws, ref.ref, taken.snap.commit);
    } catch (error) {
      return withSkippedCheckpoint(after, record, reason(error)).ledger;
    }
  }
  return withCheckpoint(after, record, checkpointKey(taken, ref.ref)).ledger;
}

/** The record's `checkpoint` key for `taken` under `ref`. */
function checkpointKey(taken: HeldCheckpoint, ref: string) {
  return {
    commit: taken.snap.commit,
    ref,
    head: taken.snap.head,
    shadow: taken.ws.shadow,
    excluded: taken.snap.excluded,
  };
}

/**
 * `iterate --checkpoint`'s checkpoint, taken before the write with its ref made for `next()`.
 * Unlike a contract's default it is asked for, so one that cannot be taken is a refusal, not a
 * record with `checkpoint_skipped`.
 */
export function takeAskedCheckpoint(
  root: string,
  session: string,
  now: Date,
  next: () => NextRecord | null,
): HeldCheckpoint {
  const named = checkpointRef(session, 0, 1);
  if ('problem' in named) throw new Refused(EXIT.usage, [named.problem]);
  const cap = maxFileBytes(process.env.LOOP_LEDGER_CHECKPOINT_MAX_MB);
  if (typeof cap !== 'number') throw new Refused(EXIT.usage, [cap.problem]);
  return checkpointStep('checkpoint', () => {
    const ws = openWorkspace(root);
    const snap = takeSnapshot(ws, { maxFileBytes: cap, now, message: `loop-ledger checkpoint ${session}` });
    return withPendingRefSync({ ws, snap }, session, next());
  });
}

/**
 * `ledger` with its new `record` carrying the asked-for checkpoint: its ref is the one made ahead
 * of the lock, or, when another writer took that number first, made now (under the caller's lock).
 */
export function attachAskedCheckpoint(
  ledger: Ledger,
  record: IterationRecord,
  taken: HeldCheckpoint,
  session: string,
): { ledger: Ledger; record: IterationRecord } {
  const ref = checkpointRef(session, record.epoch, record.n);
  if ('problem' in ref) throw new Refused(EXIT.usage, [ref.problem]);
  if (!pendingHolds(taken, ref.ref))
    checkpointStep('checkpoint', () => createRef(taken.ws, ref.ref, taken.snap.commit));
  return withCheckpoint(ledger, record, checkpointKey(taken, ref.ref));
}

/** The ref created before the lock is this record's and still names the checkpoint (no git run). */
export function pendingHolds(taken: HeldCheckpoint, ref: string) {
  return taken.pending?.ref === ref && looseRefCommit(taken.ws, ref) === taken.snap.commit;
}

/**
 * After the locked write: the ref created before it is deleted when the record did not take it
 * (refused, or recorded under another number), unless another writer has taken it over since.
 */
export function releasePendingRef(
  taken: TakenCheckpoint | null,
  recorded: IterationRecord | undefined,
): void {
  if (taken === null || 'skipped' in taken || taken.pending === undefined) return;
  const used = (recorded as { checkpoint?: { ref?: unknown } } | undefined)?.checkpoint?.ref;
  if (used === taken.pending.ref) return;
  try {
    deleteRefIfStill(taken.ws, taken.pending.ref, taken.snap.commit);
  } catch {
    // a leftover ref without a record is harmless: replaced by the next record of its number, or pruned
  }
}

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.trim().split('\n')[0] ?? '').slice(0, 500) || 'the checkpoint could not be taken';
}
