// Two session ids that differ only in case name ONE file on a case-insensitive file system
// (macOS and Windows by default): there `Fix-1` would read and overwrite `fix-1`'s ledger, and
// a repository holding both files could not be checked out. `open` asks this before it creates
// a session, on every file system, so a ledger folder never holds such a pair.
import { readdirSync } from 'node:fs';
import { ledgerDir, legacyLedgerDir } from './paths';

/**
 * The id of an existing ledger (in `.loop/ledgers` or the original engine's folder) that
 * equals `session` ignoring case but is spelled differently; null when there is none.
 */
export function caseTwin(root: string, session: string): string | null {
  const wanted = `${session}.json`.toLowerCase();
  for (const dir of [ledgerDir(root), legacyLedgerDir(root)]) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue; // no such folder: no twin there
    }
    for (const name of names) {
      if (name.length === wanted.length && name.toLowerCase() === wanted && name !== `${session}.json`)
        return name.slice(0, -'.json'.length);
    }
  }
  return null;
}
