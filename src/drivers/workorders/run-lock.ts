// One `wo run` per task at a time: `<work-orders>/.wo-run.lock`, the store's lock primitive held
// for the whole run. It names its holder's pid, host, start time and (on Linux) the process's
// own start time, so a lock whose runner is gone — crashed, or a pid now reused by another
// program, or a lock file that came with a clone — is taken over, never waited on.
import { join } from 'node:path';
import { describeHolder, takeLock, type LockHolder } from '../../store/lock';

export const RUN_LOCK = '.wo-run.lock';

export type LockResult =
  { ok: true; release: () => void } | { ok: false; holder: LockHolder | null; message: string };

/**
 * A holder that has not written its lock yet gets the store's grace to finish; a live holder on
 * another host is never presumed gone (a run lasts hours): the message says how to clear it.
 */
const WAIT_MS = 1_500;

export function acquireRunLock(dir: string): LockResult {
  const path = join(dir, RUN_LOCK);
  const taken = takeLock(path, { waitMs: WAIT_MS, staleMs: Infinity, waitForHolder: false });
  if (taken.held) return { ok: true, release: taken.release };
  return {
    ok: false,
    holder: taken.holder,
    message: `${path} is held by ${describeHolder(taken.holder)}; if no wo run is running this task there, delete ${path}`,
  };
}
