// Which file a command reads and which it writes. Loop Ledger writes only under .loop/ledgers;
// a session the original engine started is read from its old place until the first write
// creates the new file, which from then on wins. The old file is never modified.
import { existsSync } from 'node:fs';
import { ledgerPath, legacyLedgerPath } from './paths';

export interface LedgerLocation {
  /** The file to read (may not exist: then the session has no ledger yet). */
  readPath: string;
  /** Always `<root>/.loop/ledgers/<session>.json`. */
  writePath: string;
  /** True when readPath is the original engine's file. */
  legacy: boolean;
}

/** Throws InvalidSessionIdError for a bad id (check with sessionIdProblem first to report it). */
export function locateLedger(root: string, session: string): LedgerLocation {
  const writePath = ledgerPath(root, session);
  if (!existsSync(writePath)) {
    const legacyPath = legacyLedgerPath(root, session);
    if (existsSync(legacyPath)) return { readPath: legacyPath, writePath, legacy: true };
  }
  return { readPath: writePath, writePath, legacy: false };
}
