// What a long-lived reader (the VS Code extension) needs from a PostgreSQL store: every session
// of a project with its ledger and `seq`, one session again when the follower says it changed,
// and the follower itself. Part of the PostgreSQL bundle (dist/pg.js), loaded only when a store
// is chosen. Reads are one REPEATABLE READ snapshot each, so a ledger is never half-written.
import type { Client } from 'pg';
import type { Ledger } from '../../engine/types';
import { redact } from '../../store/pg/address';
import { snapshot, StoreConnection } from '../../store/pg/connection';
import { StoreFollower } from '../../store/pg/follower';
import { loadStored } from '../../store/pg/ledger-rows';

export interface LiveSession {
  session: string;
  ledger: Ledger;
  /** The session's sequence number when read (the follower compares against it). */
  seq: number;
  /** When the session was last written (ms since the epoch). */
  updatedMs: number;
}

export interface LiveStoreOptions {
  url: string;
  project: string;
  /** How long a read keeps reconnecting before it fails (ms). */
  retryMs: number;
}

export interface LiveStore {
  /** `host:port/database`, never the password. */
  readonly label: string;
  readonly follower: StoreFollower;
  readAll(): Promise<LiveSession[]>;
  /** The session as it is now, or undefined when it has no ledger. */
  readOne(session: string): Promise<LiveSession | undefined>;
  /** `text` with the password removed (for messages built from driver errors). */
  redact(text: string): string;
  close(): Promise<void>;
}

export function openLiveStore(options: LiveStoreOptions): LiveStore {
  const connection = new StoreConnection({ url: options.url, retryMs: options.retryMs });
  const follower = new StoreFollower({ url: options.url, project: options.project });
  const { project } = options;
  const one = async (client: Client, session: string): Promise<LiveSession | undefined> => {
    const meta = await client.query<{ seq: string; updated_ms: string }>(
      `SELECT seq, (extract(epoch FROM updated_at) * 1000)::bigint AS updated_ms
         FROM loop_ledger_sessions WHERE project = $1 AND session = $2 AND head IS NOT NULL`,
      [project, session],
    );
    const row = meta.rows[0];
    if (row === undefined) return undefined;
    const stored = await loadStored(client, { project, session }, false);
    if (stored === null) return undefined;
    return { session, ledger: stored.ledger, seq: Number(row.seq), updatedMs: Number(row.updated_ms) };
  };
  const readable = <T>(read: (client: Client) => Promise<T>): Promise<T> =>
    connection
      .run((client) => snapshot(client, () => read(client)))
      .catch((error: unknown) => {
        throw new Error(redact(error instanceof Error ? error.message : String(error), connection.address));
      });
  return {
    label: connection.address.label,
    follower,
    readAll: () =>
      readable(async (client) => {
        const names = await client.query<{ session: string }>(
          'SELECT session FROM loop_ledger_sessions WHERE project = $1 AND head IS NOT NULL',
          [project],
        );
        const out: LiveSession[] = [];
        for (const { session } of names.rows) {
          const found = await one(client, session);
          if (found) out.push(found);
        }
        // The file store's order (UTF-16 code units), whatever the database's collation.
        return out.sort((a, b) => (a.session < b.session ? -1 : a.session > b.session ? 1 : 0));
      }),
    readOne: (session) => readable((client) => one(client, session)),
    redact: (text) => redact(text, connection.address),
    close: async () => {
      await follower.close();
      await connection.close();
    },
  };
}
