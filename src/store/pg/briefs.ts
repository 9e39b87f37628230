// The brief packets a session keeps in the store. The ledger's head names the pending brief (what
// a verdict must bind to); the packet itself is what the critic reads, on whichever machine it
// runs, so it is kept beside the ledger. A packet can hold a 20 MiB diff: only the newest few of
// a session are kept, and a retried brief's remembered outcome names its packet instead of
// holding a second copy.
import type { Client } from 'pg';
import type { BriefPacket } from '../../engine/brief';
import type { SessionKey } from './ledger-rows';

/** Enough for a session's review round trips (a verdict binds to the pending one only). */
const BRIEFS_KEPT = 16;

/** Inside the brief's write transaction (holding the session's row): keeps `packetJson`. */
export async function keepBrief(
  client: Client,
  key: SessionKey,
  briefId: string,
  packetJson: string,
): Promise<void> {
  const params = [key.project, key.session];
  // The same id is the same content (the id is the packet's hash): kept once, as the newest.
  await client.query(
    `INSERT INTO loop_ledger_briefs (project, session, brief_id, packet) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project, session, brief_id)
     DO UPDATE SET packet = EXCLUDED.packet, created_at = clock_timestamp()`,
    [...params, briefId, packetJson],
  );
  await client.query(
    `DELETE FROM loop_ledger_briefs WHERE project = $1 AND session = $2 AND brief_id NOT IN (
       SELECT brief_id FROM loop_ledger_briefs WHERE project = $1 AND session = $2
       ORDER BY created_at DESC LIMIT $3)`,
    [...params, BRIEFS_KEPT],
  );
}

/** A kept packet, or null. */
export async function keptBrief(
  client: Client,
  key: SessionKey,
  briefId: string,
): Promise<BriefPacket | null> {
  const row = await client.query<{ packet: string }>(
    'SELECT packet FROM loop_ledger_briefs WHERE project = $1 AND session = $2 AND brief_id = $3',
    [key.project, key.session, briefId],
  );
  const text = row.rows[0]?.packet;
  return text === undefined ? null : (JSON.parse(text) as BriefPacket);
}
