// The PostgreSQL store's schema, as numbered migrations. `store migrate` applies the missing
// ones in one transaction; every other command checks the version first and refuses a database
// without the schema, behind it, or newer than this tool (never guessing at a newer layout).
import type { Client } from 'pg';
import { StoreSchemaError } from './errors';

/** Each migration's statements; the array index + 1 is its version. Never edit a shipped one. */
const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE loop_ledger_sessions (
       project text NOT NULL,
       session text NOT NULL,
       -- The ledger's JSON without its iterations, epochs and completed actions (rows below).
       -- NULL while an open that created the row is still deciding (it never commits NULL).
       head text,
       has_epochs boolean NOT NULL DEFAULT false,
       -- Bumped by every write; readers catch up from it (NOTIFY carries it as a wake-up).
       seq bigint NOT NULL DEFAULT 0,
       updated_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (project, session)
     )`,
    `CREATE TABLE loop_ledger_epochs (
       project text NOT NULL,
       session text NOT NULL,
       idx integer NOT NULL,
       entry text NOT NULL,
       PRIMARY KEY (project, session, idx),
       FOREIGN KEY (project, session) REFERENCES loop_ledger_sessions ON DELETE CASCADE
     )`,
    `CREATE TABLE loop_ledger_iterations (
       project text NOT NULL,
       session text NOT NULL,
       n integer NOT NULL CHECK (n >= 1),
       record text NOT NULL,
       PRIMARY KEY (project, session, n),
       FOREIGN KEY (project, session) REFERENCES loop_ledger_sessions ON DELETE CASCADE
     )`,
    `CREATE TABLE loop_ledger_actions (
       project text NOT NULL,
       session text NOT NULL,
       position integer NOT NULL,
       -- The action id as a JSON string, so any text (even a NUL) fits a text column.
       action text NOT NULL,
       PRIMARY KEY (project, session, position),
       UNIQUE (project, session, action),
       FOREIGN KEY (project, session) REFERENCES loop_ledger_sessions ON DELETE CASCADE
     )`,
    `CREATE TABLE loop_ledger_requests (
       project text NOT NULL,
       session text NOT NULL,
       request_id text NOT NULL,
       outcome text NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (project, session, request_id),
       FOREIGN KEY (project, session) REFERENCES loop_ledger_sessions ON DELETE CASCADE
     )`,
  ],
  [
    // The fold of the session's records (engine/records-summary.ts), kept beside them so `status`
    // and `iterate` read one row instead of every record. NULL (a session written before this
    // version): read the records and fold them; the next write stores it.
    `ALTER TABLE loop_ledger_sessions ADD COLUMN records_summary text`,
    // The session's seq at the request's write: what pruning keeps ("the newest K") is a range
    // of it. NULL for requests written before this version (pruned by age alone).
    `ALTER TABLE loop_ledger_requests ADD COLUMN seq bigint`,
    `CREATE INDEX loop_ledger_requests_by_seq ON loop_ledger_requests (project, session, seq)`,
  ],
  [
    // The brief packets assembled on the session (the newest few), so a verdict can be judged and
    // recorded on another machine than the one that assembled the brief: the packet is what the
    // critic reads, and the ledger's pending_brief names the one a verdict must bind to.
    `CREATE TABLE loop_ledger_briefs (
       project text NOT NULL,
       session text NOT NULL,
       brief_id text NOT NULL,
       packet text NOT NULL,
       created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
       PRIMARY KEY (project, session, brief_id),
       FOREIGN KEY (project, session) REFERENCES loop_ledger_sessions ON DELETE CASCADE
     )`,
  ],
];

export const SCHEMA_LATEST = MIGRATIONS.length;

const VERSION_TABLE = `CREATE TABLE IF NOT EXISTS loop_ledger_schema (
  id integer PRIMARY KEY CHECK (id = 1),
  version integer NOT NULL
)`;

/** The schema's version, or 0 when the database has none. */
async function versionOf(client: Client): Promise<number> {
  const exists = await client.query<{ t: string | null }>(
    `SELECT to_regclass('loop_ledger_schema')::text AS t`,
  );
  if (exists.rows[0]?.t == null) return 0;
  const row = await client.query<{ version: number }>('SELECT version FROM loop_ledger_schema WHERE id = 1');
  return row.rows[0]?.version ?? 0;
}

/** Refuses a database whose schema is missing, older or newer than this tool's. */
export async function checkSchema(client: Client, label: string): Promise<void> {
  const version = await versionOf(client);
  if (version === SCHEMA_LATEST) return;
  if (version === 0)
    throw new StoreSchemaError(
      `${label}: no Loop Ledger schema in this database; run \`loop-ledger store migrate\``,
    );
  if (version > SCHEMA_LATEST) throw newerThanTool(label, version);
  throw new StoreSchemaError(
    `${label}: the Loop Ledger schema is at version ${version}, this loop-ledger needs ${SCHEMA_LATEST}; run \`loop-ledger store migrate\``,
  );
}

function newerThanTool(label: string, version: number): StoreSchemaError {
  return new StoreSchemaError(
    `${label}: the Loop Ledger schema is at version ${version}, newer than this loop-ledger understands (${SCHEMA_LATEST}); upgrade loop-ledger`,
  );
}

/**
 * Applies the missing migrations in one transaction, serialised across machines by an advisory
 * lock. Returns the versions before and after.
 */
export async function migrate(client: Client, label: string): Promise<{ from: number; to: number }> {
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('loop-ledger schema'))`);
    await client.query(VERSION_TABLE);
    const from = await versionOf(client);
    if (from > SCHEMA_LATEST) throw newerThanTool(label, from);
    for (let v = from + 1; v <= SCHEMA_LATEST; v += 1) {
      for (const statement of MIGRATIONS[v - 1] as readonly string[]) await client.query(statement);
    }
    await client.query(
      `INSERT INTO loop_ledger_schema (id, version) VALUES (1, $1)
       ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version`,
      [SCHEMA_LATEST],
    );
    await client.query('COMMIT');
    return { from, to: SCHEMA_LATEST };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
