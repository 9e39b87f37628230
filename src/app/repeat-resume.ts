// `resume` on a session whose repeat is unfinished continues the repeat (the reason for
// the ledger's `repeat` key): both shells ask this before choosing the plain resume.
import { resumeContinuesRepeat } from '../engine/repeat/ledger';
import { loadLedger } from './ledger-access';
import { loadLedgerAsync } from './read-operations-async';

/**
 * Read fresh from disk. An unreadable or missing ledger is not a repeat: the plain resume
 * reports it with its own refusal, so nothing about it changes for other sessions.
 */
export function resumeContinuesRepeatOnDisk(root: string, session: string): boolean {
  try {
    return resumeContinuesRepeat(loadLedger(root, session));
  } catch {
    return false;
  }
}

/** The same question, read off the extension host's thread (the store's asynchronous reader). */
export async function resumeContinuesRepeatOnDiskAsync(root: string, session: string): Promise<boolean> {
  try {
    return resumeContinuesRepeat(await loadLedgerAsync(root, session));
  } catch {
    return false;
  }
}
