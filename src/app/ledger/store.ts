// The operations a ledger store other than the files under the root offers the CLI (today:
// PostgreSQL, src/app/ledger/pg-store.ts, loaded from its own bundle). The same payloads and exit codes
// as operations.ts; asynchronous, since every call is a round trip to a server.
import type { CloseInput } from '../../engine/close';
import type { EngineeringIterateInput } from '../../engine/engineering/iterate';
import type { OpenPayload } from '../../engine/open';
import type { ResumePayload } from '../../engine/resume';
import type { StatusPayload } from '../../engine/status';
import type { Evaluation, IterationRecord, Ledger } from '../../engine/types';
import type { SessionSummary } from '../../store/discover';
import type { OpenOpInput } from '../contract/operations';
import type { ClosePayload } from './steps';
import type { Outcome } from '../outcome';

export interface StoreSelection {
  url: string;
  /** Namespaces sessions, so projects can share one database. */
  project: string;
  /** The workspace root (contract files, and the folder `store import/export` work on). */
  root: string;
  /** Sent with every write: a retry of a write that committed is reported, not done twice. */
  requestId: string;
  /** How long to keep reconnecting when the server cannot be reached (ms). */
  retryMs: number;
}

export interface MigratePayload {
  store: string;
  from_version: number;
  to_version: number;
}

export interface TransferPayload {
  store: string;
  project: string;
  root: string;
  /** Sessions copied. */
  sessions: string[];
  /** Sessions left alone, with why (already there; unreadable file). */
  skipped: { session: string; reason: string }[];
}

export interface LedgerStoreOps {
  /** `host:port/database`: never the password. */
  readonly label: string;
  open(session: string, input: OpenOpInput): Promise<Outcome<OpenPayload>>;
  /**
   * `attach`, when given, runs in the write's transaction on the accepted iteration (`before`:
   * the ledger as loaded, `after`: the write) and gives the ledger to save instead, e.g. with the
   * record's `checkpoint` key; it may throw Refused to write nothing.
   */
  iterate(
    session: string,
    input: EngineeringIterateInput,
    attach?: (before: Ledger, after: Ledger) => Ledger,
  ): Promise<Outcome<IterationRecord>>;
  /**
   * The session's ledger as one consistent read: every record (`all`), or none (`summary`: then
   * `ledger.iterations` is empty); `count` is how many records it has either way.
   */
  ledger(session: string, records: 'all' | 'summary'): Promise<Outcome<{ ledger: Ledger; count: number }>>;
  status(session: string): Promise<Outcome<StatusPayload>>;
  score(session: string, measures: string[]): Promise<Outcome<Evaluation>>;
  resume(session: string): Promise<Outcome<ResumePayload>>;
  close(session: string, input: CloseInput): Promise<Outcome<ClosePayload>>;
  list(): Promise<Outcome<{ root: string; sessions: SessionSummary[] }>>;
  migrate(): Promise<Outcome<MigratePayload>>;
  importFiles(force: boolean): Promise<Outcome<TransferPayload>>;
  exportFiles(force: boolean): Promise<Outcome<TransferPayload>>;
  /** Closes the connection (the process cannot exit while it is open). */
  end(): Promise<void>;
}
