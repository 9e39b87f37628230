// `resume` on a session whose repeat is unfinished continues the repeat (the reason the ledger
// keeps a `repeat` key at all): both shells ask this before choosing the plain resume.
import { resumeContinuesRepeat } from '../../engine/repeat/ledger';
import type { Ledger } from '../../engine/types';
import { loadLedger } from '../ledger/access';
import { loadLedgerAsync } from '../ledger/read-operations-async';
import type { SessionLedgers } from '../ledger/session-ledgers';

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

/**
 * A repeat rule asked of the ledger read fresh off the extension host's thread (the tree may not
 * have seen the last write yet): from the files under `root`, or from `ledgers` (a PostgreSQL
 * store) when given. An unreadable ledger answers false and the operation says why.
 */
export async function repeatRuleNowAsync(
  root: string,
  session: string,
  rule: (ledger: Ledger) => boolean,
  ledgers?: SessionLedgers,
): Promise<boolean> {
  try {
    return rule(await (ledgers ? ledgers.load(session) : loadLedgerAsync(root, session)));
  } catch {
    return false;
  }
}

/** resumeContinuesRepeatOnDisk, read off the extension host's thread (or from `ledgers`). */
export function resumeContinuesRepeatNowAsync(
  root: string,
  session: string,
  ledgers?: SessionLedgers,
): Promise<boolean> {
  return repeatRuleNowAsync(root, session, resumeContinuesRepeat, ledgers);
}
