// The operations a ledger store other than the files under the root offers the CLI (today:
// PostgreSQL, src/app/ledger/pg-store.ts, loaded from its own bundle). The same payloads and exit codes
// as operations.ts; asynchronous, since every call is a round trip to a server.
import type { BriefPacket, DiffInput, DiffText } from '../../engine/brief';
import type { CloseInput } from '../../engine/close';
import type { EngineeringIterateInput } from '../../engine/engineering/iterate';
import type { OpenPayload } from '../../engine/open';
import type { ResumePayload } from '../../engine/resume';
import type { StatusPayload } from '../../engine/status';
import type { Evaluation, IterationRecord, Ledger } from '../../engine/types';
import type { SessionSummary } from '../../store/discover';
import type { OpenOpInput } from '../contract/operations';
import type { BriefOpInput } from './operations';
import type { ClosePayload, StepResult } from './steps';
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

/** A brief packet as the store keeps it (for the verdict on any machine), and the session's pending brief. */
export interface StoredBriefPayload {
  /** The session's pending brief id (null: none pending). */
  pending: string | null;
  /** The packet asked for (null: the store does not hold it, or it was pruned). */
  packet: BriefPacket | null;
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
  status(session: string): Promise<Outcome<StatusPayload>>;
  score(session: string, measures: string[]): Promise<Outcome<Evaluation>>;
  resume(session: string): Promise<Outcome<ResumePayload>>;
  close(session: string, input: CloseInput): Promise<Outcome<ClosePayload>>;
  /** Assembles the packet, arms it as the pending brief and keeps it in the store. */
  brief(session: string, input: BriefOpInput<DiffInput>): Promise<Outcome<BriefPacket<DiffText>>>;
  /** A packet the store keeps (`briefId` null: the pending one), and the pending brief id. */
  storedBrief(session: string, briefId: string | null): Promise<Outcome<StoredBriefPayload>>;
  list(): Promise<Outcome<{ root: string; sessions: SessionSummary[] }>>;
  migrate(): Promise<Outcome<MigratePayload>>;
  importFiles(force: boolean): Promise<Outcome<TransferPayload>>;
  exportFiles(force: boolean): Promise<Outcome<TransferPayload>>;
  /**
   * One write of a caller's own engine step (the drivers: `run`, `repeat`), with the same
   * guarantees as the writes above: the step runs on the ledger as stored (null: the session has
   * none yet) inside the write that saves what it returns. `requestId` names this one write, so a
   * process that writes many times gives each its own.
   */
  update<P>(
    session: string,
    requestId: string,
    step: (ledger: Ledger | null) => StepResult<P>,
  ): Promise<Outcome<P>>;
  /**
   * The session's ledger as one consistent read: every record (`all`: as the file store would read
   * it), or none (`summary`: then `ledger.iterations` is empty); `count` is how many records it
   * has either way, `seq` its write sequence number (which every write moves on).
   */
  load(
    session: string,
    records: 'all' | 'summary',
  ): Promise<Outcome<{ ledger: Ledger; count: number; seq: number }>>;
  /** Connects and checks the schema, writing nothing: a driver asks before it starts its work. */
  check(): Promise<Outcome<{ store: string }>>;
  /** Closes the connection (the process cannot exit while it is open). */
  end(): Promise<void>;
}
