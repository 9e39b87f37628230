// Where the Sessions tree reads sessions from when it is not the ledger files under each root:
// a ledger store (PostgreSQL) chosen in the settings. The tree, pickers, status bar, overview
// and dashboard all read through the tree, so they follow whichever source is in use.
import type { LedgerStoreOps } from '../../app/ledger/store';
import type { Outcome } from '../../app/outcome';
import type { WorkspaceRoot } from '../workspace/roots';
import type { TimedEntry } from './sessionEntry';

export interface StoreWrites {
  /** `host:port/database` and project, for messages (never the password). */
  readonly label: string;
  /** `--store URL --project NAME` for the CLI line of a write (the URL from the settings has no password). */
  readonly cliFlags: readonly (readonly [string, string])[];
  /** Runs one write on a store connection made for it (its own request id), then closes it. */
  run<Q>(write: (store: LedgerStoreOps) => Promise<Outcome<Q>>): Promise<Outcome<Q>>;
  /**
   * The environment a child `loop-ledger` process (`wo run`, `checkpoint`, `mcp`) needs to use
   * the same store: LOOP_LEDGER_STORE and LOOP_LEDGER_PROJECT, and PGPASSWORD when secret storage
   * holds one. Only ever given to that child; never logged or shown.
   */
  childEnv(): Promise<Record<string, string>>;
}

export interface SessionSource {
  readAll(root: WorkspaceRoot): Promise<TimedEntry[]>;
  /** One session as it is now, or undefined when it has none. */
  readOne(root: WorkspaceRoot, session: string): Promise<TimedEntry | undefined>;
  /** Where the extension's writes for sessions under `root` go. */
  writes(root: string): StoreWrites | undefined;
}
