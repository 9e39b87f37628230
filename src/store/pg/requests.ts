// The request ids a session remembers, so a write sent again after a lost reply is reported as
// done instead of done twice. Without pruning the table grows by one row per write forever.
//
// What a retry needs: the CLI sends a write again within its retry window (15 s by default), and
// an agent whose command was killed re-runs it with the same `--request-id` minutes or hours
// later. So a request row is removed only when it is BOTH older than REQUEST_KEEP_DAYS and not
// among the session's newest REQUEST_KEEP_COUNT writes: any retry within a week is recognised,
// however busy the session, and a quiet session keeps its last writes' answers for longer still.
// A retry of a pruned request runs as a new write: an iterate naming action ids is then refused
// as already complete (exit 5), never recorded twice.
import type { Client } from 'pg';
import type { SessionKey } from './ledger-rows';

const REQUEST_KEEP_DAYS = 7;
const REQUEST_KEEP_COUNT = 1000;
/** Pruning runs on every PRUNE_EVERY-th write of a session, so its cost is spread thin. */
const PRUNE_EVERY = 64;

/**
 * Inside the write's transaction (holding the session's row), after the write at `seq`: removes
 * the session's requests that are old by both measures. Rows from before requests carried a seq
 * are judged by age alone.
 */
export async function pruneRequests(client: Client, key: SessionKey, seq: number): Promise<void> {
  if (seq % PRUNE_EVERY !== 0) return;
  await client.query(
    `DELETE FROM loop_ledger_requests
     WHERE project = $1 AND session = $2
       AND (seq IS NULL OR seq <= $3)
       AND created_at < now() - make_interval(days => $4)`,
    [key.project, key.session, seq - REQUEST_KEEP_COUNT, REQUEST_KEEP_DAYS],
  );
}
