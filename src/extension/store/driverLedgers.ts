// The ledgers a driver started from the window (Run Loop, Repeat Until Settled) records into when the window uses a
// PostgreSQL store: the same store writes as the CLI's `run` on LOOP_LEDGER_STORE, each on a
// connection opened for it (the window's own writes do the same), with request ids of one run.
import { randomUUID } from 'node:crypto';
import { usedStoreLedgers, type SessionLedgers } from '../../app/ledger/session-ledgers';
import type { StoreWrites } from '../sessions/sessionSource';
import type { SessionsTreeProvider } from '../sessions/treeProvider';

export function driverLedgers(writes: StoreWrites): SessionLedgers {
  return usedStoreLedgers(writes.label, (body) => writes.run(body), randomUUID());
}

/** The store's ledgers for sessions under `root` while the window uses one; undefined on the files. */
export function windowLedgers(sessions: SessionsTreeProvider, root: string): SessionLedgers | undefined {
  const writes = sessions.storeWrites(root);
  return writes ? driverLedgers(writes) : undefined;
}
