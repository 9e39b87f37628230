// A build whose runner was killed (`kill -9` of `wo run`) leaves its builder's process group
// running: an orphaned harness goes on, and may write its work order's files again after the
// next runner's recovery removed them. The runner records the group while the build runs
// (`wo-NN.builder.json`); the next runner stops that group before it resets and rebuilds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readText, writeJsonAtomic } from './files';

export function builderRecordPath(dir: string, id: string): string {
  return join(dir, `${id}.builder.json`);
}

export function recordBuilder(dir: string, id: string, attempt: number, pgid: number): void {
  writeJsonAtomic(builderRecordPath(dir, id), { wo_id: id, attempt, pgid, runner_pid: process.pid });
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The group leader still runs this work order's build for the recorded runner: its environment
 * names both (Linux /proc). Anywhere that cannot be read, a recycled process id is not risked.
 */
function ours(pgid: number, id: string, runnerPid: number): boolean {
  try {
    const env = readFileSync(`/proc/${pgid}/environ`, 'utf8').split('\0');
    return env.includes(`WO_ID=${id}`) && env.includes(`WO_RUNNER_PID=${runnerPid}`);
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stops the crashed build's process group when it is still there; returns its pgid when one was
 * stopped. Never a group that is not the recorded build's, nor the current runner's own.
 */
export async function stopOrphanBuild(dir: string, id: string): Promise<number | undefined> {
  const text = readText(builderRecordPath(dir, id));
  let record: { pgid?: unknown; runner_pid?: unknown };
  try {
    record = text === undefined ? {} : (JSON.parse(text) as typeof record);
  } catch {
    return undefined;
  }
  const { pgid, runner_pid: runnerPid } = record;
  if (typeof pgid !== 'number' || !Number.isInteger(pgid) || pgid <= 1) return undefined;
  if (typeof runnerPid !== 'number' || runnerPid === process.pid) return undefined;
  if (!groupAlive(pgid) || !ours(pgid, id, runnerPid)) return undefined;
  // TERM first: a harness cancels on it and stops its agents' own process groups, which a KILL
  // of its group alone would leave running. KILL whatever is left after the grace period.
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {
    return undefined;
  }
  for (let i = 0; i < 250 && groupAlive(pgid); i += 1) await sleep(20);
  if (groupAlive(pgid)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // gone in between
    }
    for (let i = 0; i < 100 && groupAlive(pgid); i += 1) await sleep(20);
  }
  return pgid;
}
