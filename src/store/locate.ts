// Which file a command reads and which it writes. Loop Ledger writes only under .loop/ledgers;
// a session the original engine started is read from its old place until the first write
// creates the new file, which from then on wins. The old file is never modified.
import { ledgerPath, legacyLedgerPath } from './paths';
import type { LedgerRead } from './ledger-verdict';
import { ledgerFileSteps, type ReadSteps } from './read-steps';
import { runReadSync } from './read-sync';

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
  return runReadSync(locateSteps(root, session));
}

/** locateLedger's rule, for either driver. */
export function* locateSteps(root: string, session: string): ReadSteps<LedgerLocation> {
  const writePath = ledgerPath(root, session);
  if (!((yield { kind: 'exists', path: writePath }) as boolean)) {
    const legacyPath = legacyLedgerPath(root, session);
    if ((yield { kind: 'exists', path: legacyPath }) as boolean)
      return { readPath: legacyPath, writePath, legacy: true };
  }
  return { readPath: writePath, writePath, legacy: false };
}

/** A session's ledger as it is now: located as every command locates it, then read once. */
export function* sessionLedgerSteps(
  root: string,
  session: string,
): ReadSteps<{ location: LedgerLocation; read: LedgerRead; mtimeMs: number }> {
  const location = yield* locateSteps(root, session);
  const { read, mtimeMs } = yield* ledgerFileSteps(location.readPath);
  return { location, read, mtimeMs };
}
