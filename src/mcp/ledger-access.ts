// Where a tool's ledger operation runs: on the PostgreSQL store the server (or the window) was
// given, or on the ledger files under the root. Each tool names both calls, with the same input,
// so its payloads and refusals are the same on either store.
import { randomUUID } from 'node:crypto';
import { usedStoreLedgers, type SessionLedgers } from '../app/ledger/session-ledgers';
import type { LedgerStoreOps } from '../app/ledger/store';
import type { LockOptions } from '../app/ledger/lock-options';
import type { Outcome } from '../app/outcome';
import type { ServerContext } from './context';

/** A write: on the store (a request id of its own), or under the ledger file's lock. */
export function writeLedger<P>(
  ctx: ServerContext,
  onStore: (store: LedgerStoreOps) => Promise<Outcome<P>>,
  onFiles: (lock: LockOptions) => Outcome<P>,
): Promise<Outcome<P>> {
  return ctx.store ? ctx.store.run(onStore) : ctx.write(onFiles);
}

/** A read: from the store, or from the files. */
export function readLedger<P>(
  ctx: ServerContext,
  onStore: (store: LedgerStoreOps) => Promise<Outcome<P>>,
  onFiles: () => Outcome<P>,
): Promise<Outcome<P>> {
  return ctx.store ? ctx.store.run(onStore) : Promise.resolve(onFiles());
}

/**
 * The ledgers a driver step reads and writes (a run, the repeat check of a resume): the store's,
 * each write through the server's one connection with a request id of its own; undefined on the
 * files (the driver then uses the files under the root).
 */
export function driverLedgers(ctx: ServerContext): SessionLedgers | undefined {
  const onStore = ctx.store;
  return onStore ? usedStoreLedgers(onStore.label, (body) => onStore.run(body), randomUUID()) : undefined;
}
