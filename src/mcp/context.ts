// What every tool handler receives: the root it is confined to, and the server's own state.
import type { LockOptions } from '../app/ledger/lock-options';
import type { LedgerStoreOps } from '../app/ledger/store';
import type { Outcome } from '../app/outcome';
import type { BriefStore } from './brief-store';

export interface ServerContext {
  /** The root as given (absolute); every path argument is resolved against it. */
  root: string;
  briefs: BriefStore;
  /** Clock for the writes (tests cannot stop it; it is read once per call). */
  now(): Date;
  /**
   * Runs one write operation with the lock options it should take. The server (its own process)
   * waits for a busy ledger as the CLI does; the extension host must never sleep, so its tools
   * try once at a time and retry on timers (writeWithoutBlocking).
   */
  write<P>(op: (lock: LockOptions) => Outcome<P>): Promise<Outcome<P>>;
  /** The PostgreSQL store the ledgers live in, when one is selected (else the files under root). */
  store?: ContextStore;
}

export interface ContextStore {
  /** `host:port/database` (never the password), and the project. */
  readonly label: string;
  /**
   * Runs one operation on the store. Each call sends a request id of its own: a write sent again
   * after a lost connection is recognised as done, and two calls are never taken for one.
   */
  run<Q>(op: (store: LedgerStoreOps) => Promise<Outcome<Q>>): Promise<Outcome<Q>>;
}
