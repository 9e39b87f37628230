// Files beside the ledger: `.loop/repeat/<session>.md` (the state and any open question, for a
// person or a later `--answer`) and `.loop/repeat/<session>.run.json` (the inner step's process
// group while it runs, so a repeat resumed after a crash can end an orphaned step first).
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readBoundedText } from '../../store/bounded-read';
import { confineWrite, makeDirConfined, writeFileConfined } from '../../store/confine';
import { describeHolder, takeLock, type LockHolder } from '../../store/lock';

export function repeatDir(root: string): string {
  return join(root, '.loop', 'repeat');
}

export function stateFilePath(root: string, session: string): string {
  return join(repeatDir(root), `${session}.md`);
}

function markerPath(root: string, session: string): string {
  return join(repeatDir(root), `${session}.run.json`);
}

/**
 * Throws OutsideRootError (one line naming the file) when any file repeat writes for the
 * session would land outside the root or go through a link: checked before anything is written.
 */
export function confineRepeatFiles(root: string, session: string): void {
  for (const path of [stateFilePath(root, session), markerPath(root, session), ownerPath(root, session)])
    confineWrite(root, path);
}

export function writeStateFile(root: string, session: string, text: string): string {
  const path = stateFilePath(root, session);
  makeDirConfined(root, repeatDir(root));
  writeFileConfined(root, path, text);
  return path;
}

export interface RunMarker {
  pid: number;
  token: string;
  iteration: number;
}

export function newRunToken(): string {
  return randomBytes(8).toString('hex');
}

export function writeRunMarker(root: string, session: string, marker: RunMarker): void {
  makeDirConfined(root, repeatDir(root));
  writeFileConfined(root, markerPath(root, session), JSON.stringify(marker) + '\n');
}

export function clearRunMarker(root: string, session: string): void {
  rmSync(markerPath(root, session), { force: true });
}

/** The process still carries our run token (so a recycled pid is never signalled). */
function ownsToken(pid: number, token: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .includes(`LOOP_LEDGER_REPEAT_RUN=${token}`);
  } catch {
    return false;
  }
}

/**
 * After a crash: if the step a killed repeat started is still running, end its process group and
 * say so. Returns a note for the user, or null when nothing was left over.
 */
export async function endOrphanedStep(root: string, session: string): Promise<string | null> {
  let marker: RunMarker;
  try {
    marker = JSON.parse(readBoundedText(markerPath(root, session))) as RunMarker;
  } catch {
    return null;
  }
  clearRunMarker(root, session);
  if (!Number.isSafeInteger(marker.pid) || marker.pid <= 1 || typeof marker.token !== 'string') return null;
  if (!ownsToken(marker.pid, marker.token))
    return `iteration ${marker.iteration} was interrupted; it is run again`;
  try {
    process.kill(-marker.pid, 'SIGTERM');
  } catch {
    return null;
  }
  for (let waited = 0; waited < 2000 && ownsToken(marker.pid, marker.token); waited += 100) {
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    process.kill(-marker.pid, 'SIGKILL');
  } catch {
    // ended on TERM
  }
  return `iteration ${marker.iteration} was interrupted and its step (pid ${marker.pid}) was still running: ended; it is run again`;
}

function ownerPath(root: string, session: string): string {
  return join(repeatDir(root), `${session}.owner`);
}

/**
 * One process drives a session's repeat at a time: `.loop/repeat/<session>.owner` is the store's
 * lock primitive, held while the repeat runs. A second `repeat` on the session is refused while
 * its holder runs; one left by a process that died (SIGKILL), or naming a pid now reused, is
 * taken over. Returns the release function, or who holds it and how to clear it.
 */
export function claimRepeat(
  root: string,
  session: string,
): { release: () => void } | { busy: LockHolder | null; message: string } {
  const path = ownerPath(root, session);
  makeDirConfined(root, repeatDir(root));
  confineWrite(root, path, { folderOnly: true });
  const taken = takeLock(path, { waitMs: CLAIM_WAIT_MS, staleMs: Infinity, waitForHolder: false });
  if (taken.held) return { release: taken.release };
  return {
    busy: taken.holder,
    message:
      taken.holder === null
        ? `a repeat is starting for this session (${describeHolder(null)}); wait for it (if no repeat runs, delete ${path})`
        : `a repeat is already running for this session (pid ${taken.holder.pid}): held by ${describeHolder(taken.holder)}; wait for it or stop it (if no repeat runs, delete ${path})`,
  };
}

/** Gives a claimer that has created its file but not yet written its pid time to finish. */
const CLAIM_WAIT_MS = 1_500;
