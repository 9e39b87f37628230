// How long a write operation may wait for another writer's lock. The CLI keeps the store's
// default (a blocking wait of up to 2 s is fine in a short-lived process); the extension passes
// `waitMs: 0` and retries on timers, because a synchronous wait would freeze every extension in
// the window (see src/extension/workspace/ledgerWrites.ts).
export interface LockOptions {
  /** Passed to the store's withLock: 0 = one attempt, refused at once when the ledger is busy. */
  readonly waitMs?: number;
}

/** The finding code of a refusal because another writer held the ledger's lock (exit 3). */
export const LEDGER_BUSY = 'ledger-busy';
