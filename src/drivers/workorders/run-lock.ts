// One `wo run` per task at a time: `<work-orders>/.wo-run.lock` holds the runner's pid, created
// exclusively. A lock whose process is gone (a crashed runner) is taken over, never waited on.
import { openSync, closeSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../../store/lock';

export type LockResult = { ok: true; release: () => void } | { ok: false; holder: number };

export function acquireRunLock(dir: string): LockResult {
  const path = join(dir, '.wo-run.lock');
  for (let tries = 0; tries < 3; tries += 1) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return { ok: true, release: () => rmSync(path, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder: number;
      try {
        holder = Number(readFileSync(path, 'utf8').trim());
      } catch {
        continue; // released between our open and read: try again
      }
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) return { ok: false, holder };
      rmSync(path, { force: true }); // stale: its runner is gone
    }
  }
  return { ok: false, holder: -1 };
}
