// Where a driver (`run`, `repeat`, `wo run`) keeps the ledgers it records into: the files under
// the root, or a PostgreSQL store, so another machine's `list`, `status` and tree see the loop as
// it goes. The driver's own working files (run folders, sidecars, markers, queues) stay on the
// machine either way; only the ledger moves. Each write runs the driver's engine step on the
// ledger as stored, inside the store's one write (the file lock, or the session row's lock).
import { createHash } from 'node:crypto';
import { EXIT } from '../../engine/refusal';
import type { Ledger } from '../../engine/types';
import { locateLedger, readRegularFileBytes } from '../../store';
import { Refused, type Outcome } from '../outcome';
import { loadLedger, requireLedger, updateLedger } from './access';
import type { LedgerStoreOps } from './store';
import { nextFromFilesAsync, nextRecordOf, type NextRecord } from '../checkpoints/iteration-checkpoint';

/** What a step decides: the ledger to save (none: nothing is written) and what to return. */
export interface Decision<T> {
  write?: Ledger;
  result: T;
}

export interface SessionLedgers {
  /** Undefined for the files; the store's `host:port/database` (never the password) otherwise. */
  readonly store: string | undefined;
  /** The session's ledger; exit 2 when it has none or it cannot be read. */
  load(session: string): Promise<Ledger>;
  /**
   * Runs `decide` on the session's ledger (null: none yet) in one write. A Refused thrown by
   * `decide`, or by the store, comes out as a Refused and nothing is written.
   * `unreadable`: returned, instead of a refusal, when the ledger exists but cannot be read.
   */
  update<T>(
    session: string,
    decide: (ledger: Ledger | null) => Decision<T>,
    unreadable?: { value: T },
  ): Promise<T>;
  /** A token that changes whenever any writer changes the session's ledger. */
  version(session: string): Promise<string>;
  /**
   * The epoch and number the session's next record is expected to get (null: no readable
   * ledger), read without the write's lock: a checkpoint's ref is made for it ahead of the write.
   */
  nextRecord(session: string): Promise<NextRecord | null>;
}

/** The ledger files under `root` (the default). */
export function fileLedgers(root: string): SessionLedgers {
  return {
    store: undefined,
    load: (session) => Promise.resolve(loadLedger(root, session)),
    update: (session, decide, unreadable) =>
      Promise.resolve(
        updateLedger(root, session, (read, location) => {
          if (read.kind === 'absent') return decide(null);
          if (read.kind !== 'ok' && unreadable) return { result: unreadable.value };
          return decide(requireLedger(read, location, session));
        }),
      ),
    version: (session) => Promise.resolve(fileHash(locateLedger(root, session).writePath)),
    nextRecord: (session) => nextFromFilesAsync(root, session),
  };
}

function fileHash(path: string): string {
  try {
    const bytes = readRegularFileBytes(path);
    return bytes === undefined ? 'absent' : createHash('sha256').update(bytes).digest('hex');
  } catch {
    return 'absent';
  }
}

/** Runs one store operation: on a store held for the whole command, or on one opened for it. */
export type StoreUse = <P>(body: (store: LedgerStoreOps) => Promise<Outcome<P>>) => Promise<Outcome<P>>;

/**
 * The ledgers in a PostgreSQL store (`label`: `host:port/database`). `requestBase` prefixes the
 * request id of each write (its count follows), so a write retried after a lost connection is
 * recognised, and no two writes of one process share an id. The value a step returns stays in
 * this process; the store keeps only that the write happened.
 */
export function storeLedgers(store: LedgerStoreOps, requestBase: string): SessionLedgers {
  return usedStoreLedgers(store.label, (body) => body(store), requestBase);
}

/** storeLedgers over `use` (the window opens a connection per write). */
export function usedStoreLedgers(label: string, use: StoreUse, requestBase: string): SessionLedgers {
  let writes = 0;
  return {
    store: label,
    async load(session) {
      const outcome = await use((store) => store.load(session, 'all'));
      if (outcome.payload === undefined || outcome.exitCode !== 0)
        throw new Refused(outcome.exitCode === 0 ? EXIT.internal : outcome.exitCode, outcome.findings);
      return outcome.payload.ledger;
    },
    async update<T>(session: string, decide: (ledger: Ledger | null) => Decision<T>) {
      writes += 1;
      const requestId = `${requestBase}.${writes}`;
      let decided: { value: T } | undefined;
      const outcome = await use((store) =>
        store.update(session, requestId, (ledger) => {
          const decision = decide(ledger);
          decided = { value: decision.result };
          return { write: decision.write, result: { exitCode: 0, payload: null, findings: [] } };
        }),
      );
      if (outcome.exitCode !== 0) throw new Refused(outcome.exitCode, outcome.findings);
      if (decided === undefined)
        throw new Error(`${session}: the store reported write ${requestId} done before it was made`);
      return decided.value;
    },
    async version(session) {
      const outcome = await use((store) => store.load(session, 'all'));
      return outcome.payload === undefined ? 'absent' : `seq ${outcome.payload.seq}`;
    },
    async nextRecord(session) {
      const outcome = await use((store) => store.load(session, 'summary'));
      return outcome.payload === undefined
        ? null
        : nextRecordOf(outcome.payload.ledger, outcome.payload.count);
    },
  };
}
