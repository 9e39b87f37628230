// One restore at a time per workspace: a restore writes its files outside the ledger's lock, so
// two restores (of one session or two) must not write over each other, and each must take its
// safety checkpoint and plan of the workspace the one before it left. The lock is held for the
// whole restore, from the refusal checks to the record; iterates never take it. A restore killed
// while holding it leaves a lock naming a dead process, which the next restore breaks at once.
import { join } from 'node:path';
import { EXIT } from '../../engine/refusal';
import { makeDirConfined, OutsideRootError } from '../../store/confine';
import { describeHolder, takeLock } from '../../store/lock';
import { Refused } from '../outcome';

/** Long enough for another restore of a large workspace to finish. */
const WAIT_MS = 60_000;

export function withRestoreLock<T>(root: string, fn: () => T): T {
  const folder = join(root, '.loop');
  const path = join(folder, 'restore.lock');
  try {
    // Never through a link out of the root (a cloned repository can carry `.loop` as one).
    makeDirConfined(root, folder);
  } catch (error) {
    if (error instanceof OutsideRootError) throw new Refused(EXIT.usage, [error.message]);
    throw error;
  }
  const taken = takeLock(path, { waitMs: WAIT_MS, staleMs: Infinity });
  if (!taken.held) {
    throw new Refused(EXIT.wrongState, [
      `another checkpoint restore is running in this workspace (held by ${describeHolder(taken.holder)}); wait for it (if none runs, delete ${path})`,
    ]);
  }
  try {
    return fn();
  } finally {
    taken.release();
  }
}
