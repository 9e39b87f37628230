// The checkpoints of one session as the ledger records them, each checked by the engine's rules
// before any of it reaches git: a commit that is not a full hex id, or a ref that is not the one
// this session, epoch and iteration would have, is refused, never passed on.
import { git } from '../../drivers/checkpoints/git';
import { refCommit } from '../../drivers/checkpoints/refs';
import type { CheckpointWorkspace } from '../../drivers/checkpoints/workspace';
import { readCheckpointKey, type CheckpointRecord } from '../../engine/checkpoints/rules';
import { EXIT } from '../../engine/refusal';
import type { Ledger } from '../../engine/types';
import { loadLedger } from '../ledger/access';
import { Refused } from '../outcome';

export interface SessionCheckpoint extends CheckpointRecord {
  n: number;
  epoch: number;
}

export function sessionCheckpoints(root: string, session: string): SessionCheckpoint[] {
  return checkpointsOfLedger(loadLedger(root, session), session);
}

/** The checkpoints `ledger`'s records name (a ledger read from any store). */
export function checkpointsOfLedger(ledger: Ledger, session: string): SessionCheckpoint[] {
  const out: SessionCheckpoint[] = [];
  for (const record of ledger.iterations) {
    const read = readCheckpointKey(
      (record as { checkpoint?: unknown }).checkpoint,
      session,
      record.epoch,
      record.n,
    );
    if (read === null) continue;
    if ('problem' in read) throw new Refused(EXIT.malformed, [read.problem]);
    out.push({ ...read.checkpoint, n: record.n, epoch: record.epoch });
  }
  return out;
}

/** Iteration `n`'s checkpoint (the newest epoch's when a loop was re-opened). */
export function checkpointOf(all: SessionCheckpoint[], session: string, n: number): SessionCheckpoint {
  const found = all.filter((c) => c.n === n).pop();
  if (!found) throw new Refused(EXIT.usage, [`${session}: iteration ${n} has no checkpoint`]);
  return found;
}

/** The checkpoint's commit, once its ref is known to still name it. */
export function liveCommit(ws: CheckpointWorkspace, cp: SessionCheckpoint, session: string): string {
  if (cp.shadow !== ws.shadow) {
    throw new Refused(EXIT.wrongState, [
      `${session} iteration ${cp.n}: its checkpoint was taken ${cp.shadow ? 'outside' : 'inside'} a git repository, and the workspace is now ${ws.shadow ? 'not one' : 'one'}`,
    ]);
  }
  const commit = refCommit(ws, cp.ref);
  if (commit === null) {
    // A ledger in a shared store names checkpoints taken on other machines: their objects are there.
    const present = git(ws.place, ['cat-file', '-e', '--end-of-options', `${cp.commit}^{commit}`]).code === 0;
    throw new Refused(EXIT.wrongState, [
      present
        ? `${session} iteration ${cp.n}: checkpoint ${cp.ref} is gone (pruned)`
        : `${session} iteration ${cp.n}: its checkpoint commit ${cp.commit} is not in this repository (${ws.place.top}); it was taken in another one (another machine or clone), where its objects and ref ${cp.ref} stay`,
    ]);
  }
  if (commit !== cp.commit) {
    throw new Refused(EXIT.wrongState, [
      `${session} iteration ${cp.n}: ${cp.ref} no longer names the recorded commit`,
    ]);
  }
  return commit;
}
