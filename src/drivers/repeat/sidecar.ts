// Files beside the ledger: `.loop/repeat/<session>.md` (the state and any open question, for a
// person or a later `--answer`) and `.loop/repeat/<session>.run.json` (the inner step's process
// group while it runs, so a repeat resumed after a crash can end an orphaned step first).
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../store';
import { isAlive } from '../../store/lock';

export function repeatDir(root: string): string {
  return join(root, '.loop', 'repeat');
}

export function stateFilePath(root: string, session: string): string {
  return join(repeatDir(root), `${session}.md`);
}

function markerPath(root: string, session: string): string {
  return join(repeatDir(root), `${session}.run.json`);
}

export function writeStateFile(root: string, session: string, text: string): string {
  const path = stateFilePath(root, session);
  mkdirSync(repeatDir(root), { recursive: true });
  writeFileAtomicSync(path, text);
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
  mkdirSync(repeatDir(root), { recursive: true });
  writeFileAtomicSync(markerPath(root, session), JSON.stringify(marker) + '\n');
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
    marker = JSON.parse(readFileSync(markerPath(root, session), 'utf8')) as RunMarker;
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
 * One process drives a session's repeat at a time: `.loop/repeat/<session>.owner` holds its pid
 * while it runs. A second `repeat` on the session is refused while that pid is alive; a file left
 * by a process that died (SIGKILL) is taken over. Returns the release function, or the live pid.
 */
export function claimRepeat(root: string, session: string): { release: () => void } | { busy: number } {
  const path = ownerPath(root, session);
  mkdirSync(repeatDir(root), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      return { release: () => rmSync(path, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: number;
    try {
      holder = Number(readFileSync(path, 'utf8').trim());
    } catch {
      continue; // released between our attempts: try again
    }
    if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
      return { busy: holder };
    }
    rmSync(path, { force: true }); // its owner is gone
  }
  throw new Error(`${path}: could not claim the repeat (it keeps changing hands)`);
}
