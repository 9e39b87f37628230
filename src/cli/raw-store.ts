// The store a drop-in command (`run`, `repeat`, `wo run`) records its ledgers in. Their grammars
// are their originals', so the store is chosen by the environment only (LOOP_LEDGER_STORE,
// LOOP_LEDGER_PROJECT): the same rule as every other command's, with the root the command itself
// resolved. Undefined: the ledger files under the root.
import { randomUUID } from 'node:crypto';
import type { LedgerStoreOps } from '../app/ledger/store';
import { storeFrom } from './store-select';

export function rawStore(root: string): LedgerStoreOps | undefined {
  return storeFrom({}, root);
}

/**
 * The prefix of this process's store writes' request ids: fresh per process, since a driver's
 * writes are not one repeatable command (a retry after a lost connection reuses the write's id).
 */
export function rawRequestBase(): string {
  return randomUUID();
}
