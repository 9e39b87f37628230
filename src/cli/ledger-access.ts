// Loading and saving a session's ledger for a command: session-id check, legacy location,
// corrupt/too-new refusals, and every write under the per-ledger lock with a fresh read inside it.
import { EXIT } from '../engine/refusal';
import type { Ledger } from '../engine/types';
import {
  LockBusyError,
  locateLedger,
  readLedgerFile,
  saveLedgerFile,
  sessionIdProblem,
  withLock,
  type LedgerLocation,
  type LedgerRead,
} from '../store';
import { CommandExit } from './outcome';

export function checkedLocation(root: string, session: string): LedgerLocation {
  const problem = sessionIdProblem(session);
  if (problem) throw new CommandExit(EXIT.usage, [problem]);
  return locateLedger(root, session);
}

/** A readable ledger, or exit 2 naming why there is none. */
export function requireLedger(read: LedgerRead, location: LedgerLocation, session: string): Ledger {
  switch (read.kind) {
    case 'ok':
      return read.ledger;
    case 'absent':
      throw new CommandExit(EXIT.usage, [`${session}: no ledger at ${location.readPath} (open one first)`]);
    case 'corrupt':
      throw new CommandExit(EXIT.usage, [`${location.readPath}: ledger ${read.reason}`]);
    case 'too-new':
      throw new CommandExit(EXIT.usage, [
        `${location.readPath}: ledger has schema_version ${read.version}, newer than this loop-ledger understands; upgrade loop-ledger`,
      ]);
  }
}

export function loadLedger(root: string, session: string): Ledger {
  const location = checkedLocation(root, session);
  return requireLedger(readLedgerFile(location.readPath), location, session);
}

/**
 * Runs `decide` on the freshly read ledger while holding the lock; when it returns a ledger, that
 * ledger is written atomically before the lock is released. A busy lock is exit 3.
 */
export function updateLedger<T>(
  root: string,
  session: string,
  decide: (read: LedgerRead, location: LedgerLocation) => { write?: Ledger; result: T },
): T {
  const location = checkedLocation(root, session);
  try {
    return withLock(location.writePath, () => {
      const { write, result } = decide(readLedgerFile(location.readPath), location);
      if (write) saveLedgerFile(location.writePath, write);
      return result;
    });
  } catch (error) {
    if (error instanceof LockBusyError)
      throw new CommandExit(EXIT.wrongState, [`${session}: ${error.message}`]);
    throw error;
  }
}
