// The ledgers a driver started from the window (Run Loop) records into when the window uses a
// PostgreSQL store: the same store writes as the CLI's `run` on LOOP_LEDGER_STORE, each on a
// connection opened for it (the window's own writes do the same), with request ids of one run.
import { randomUUID } from 'node:crypto';
import { usedStoreLedgers, type SessionLedgers } from '../../app/ledger/session-ledgers';
import type { StoreWrites } from '../sessions/sessionSource';

export function driverLedgers(writes: StoreWrites): SessionLedgers {
  return usedStoreLedgers(writes.label, (body) => writes.run(body), randomUUID());
}
