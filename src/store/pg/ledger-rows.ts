// A ledger as rows: the session row holds the ledger's JSON without its lists; its epochs,
// completed actions and iteration records are one row each, in order. Loading gives back the
// same ledger object the file store's reader would (keys sorted, as the file has them), and a
// save writes only what changed: an `iterate` inserts one record row and updates the head.
import type { Client } from 'pg';
import type { IterationRecord, Ledger } from '../../engine/types';
import { SCHEMA_VERSION } from '../ledger-file';
import { RECORDS_DIGEST_KEY, RECORDS_SUMMARY_KEY } from '../records-digest';

export interface SessionKey {
  project: string;
  session: string;
}

/** A ledger as loaded, with the texts its rows held (a save compares against them). */
export interface StoredLedger {
  ledger: Ledger;
  epochs: string[];
  actions: string[];
  records: IterationRecord[];
}

/** Keys kept in rows of their own, or (the seal) meaningful only inside a file. */
const LISTS = new Set(['iterations', 'epochs', 'completed_actions', RECORDS_DIGEST_KEY, RECORDS_SUMMARY_KEY]);

function headOf(ledger: Ledger): string {
  const head: Record<string, unknown> = {};
  for (const [key, value] of Object.entries({ ...ledger, schema_version: SCHEMA_VERSION }))
    if (!LISTS.has(key) && value !== undefined) head[key] = value;
  return JSON.stringify(head);
}

/** The session's ledger, or null when it has none. `lock` takes the row for this transaction. */
export async function loadStored(
  client: Client,
  key: SessionKey,
  lock: boolean,
): Promise<StoredLedger | null> {
  const params = [key.project, key.session];
  const row = await client.query<{ head: string | null; has_epochs: boolean }>(
    `SELECT head, has_epochs FROM loop_ledger_sessions WHERE project = $1 AND session = $2${lock ? ' FOR UPDATE' : ''}`,
    params,
  );
  const found = row.rows[0];
  if (found === undefined || found.head === null) return null;
  const epochs = (
    await client.query<{ entry: string }>(
      'SELECT entry FROM loop_ledger_epochs WHERE project = $1 AND session = $2 ORDER BY idx',
      params,
    )
  ).rows.map((r) => r.entry);
  const actions = (
    await client.query<{ action: string }>(
      'SELECT action FROM loop_ledger_actions WHERE project = $1 AND session = $2 ORDER BY position',
      params,
    )
  ).rows.map((r) => JSON.parse(r.action) as string);
  const records = (
    await client.query<{ record: string }>(
      'SELECT record FROM loop_ledger_iterations WHERE project = $1 AND session = $2 ORDER BY n',
      params,
    )
  ).rows.map((r) => JSON.parse(r.record) as IterationRecord);
  const fields: Record<string, unknown> = {
    ...(JSON.parse(found.head) as Record<string, unknown>),
    completed_actions: actions,
    iterations: records,
  };
  if (found.has_epochs) fields.epochs = epochs.map((e) => JSON.parse(e) as unknown);
  const ledger: Record<string, unknown> = {};
  for (const k of Object.keys(fields).sort()) ledger[k] = fields[k];
  return { ledger: ledger as unknown as Ledger, epochs, actions, records };
}

/** How many leading items two lists share. */
function sharedPrefix<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): number {
  let i = 0;
  while (i < a.length && i < b.length && same(a[i] as T, b[i] as T)) i += 1;
  return i;
}

/**
 * Saves `write` over `old` (null: the session row exists but holds no ledger yet), inside the
 * caller's transaction holding the row. Returns the session's new sequence number.
 */
export async function saveStored(
  client: Client,
  key: SessionKey,
  old: StoredLedger | null,
  write: Ledger,
): Promise<number> {
  const params = [key.project, key.session];
  const updated = await client.query<{ seq: string }>(
    `UPDATE loop_ledger_sessions SET head = $3, has_epochs = $4, seq = seq + 1, updated_at = now()
     WHERE project = $1 AND session = $2 RETURNING seq`,
    [...params, headOf(write), write.epochs !== undefined],
  );
  const epochs = (write.epochs ?? []).map((e) => JSON.stringify(e));
  const keepEpochs = sharedPrefix(old?.epochs ?? [], epochs, (a, b) => a === b);
  await client.query('DELETE FROM loop_ledger_epochs WHERE project = $1 AND session = $2 AND idx >= $3', [
    ...params,
    keepEpochs,
  ]);
  if (epochs.length > keepEpochs)
    await client.query(
      `INSERT INTO loop_ledger_epochs (project, session, idx, entry)
       SELECT $1, $2, e.ordinality - 1 + $3, e.entry FROM unnest($4::text[]) WITH ORDINALITY AS e(entry, ordinality)`,
      [...params, keepEpochs, epochs.slice(keepEpochs)],
    );
  const actions = write.completed_actions;
  const keepActions = sharedPrefix(old?.actions ?? [], actions, (a, b) => a === b);
  await client.query(
    'DELETE FROM loop_ledger_actions WHERE project = $1 AND session = $2 AND position >= $3',
    [...params, keepActions],
  );
  if (actions.length > keepActions)
    await client.query(
      `INSERT INTO loop_ledger_actions (project, session, position, action)
       SELECT $1, $2, a.ordinality - 1 + $3, a.action FROM unnest($4::text[]) WITH ORDINALITY AS a(action, ordinality)`,
      [...params, keepActions, actions.slice(keepActions).map((a) => JSON.stringify(a))],
    );
  // Records never change once written: the same objects as loaded are kept as rows.
  const records = write.iterations;
  const keepRecords = sharedPrefix(old?.records ?? [], records, (a, b) => a === b);
  await client.query('DELETE FROM loop_ledger_iterations WHERE project = $1 AND session = $2 AND n > $3', [
    ...params,
    keepRecords,
  ]);
  if (records.length > keepRecords)
    await client.query(
      `INSERT INTO loop_ledger_iterations (project, session, n, record)
       SELECT $1, $2, r.ordinality + $3, r.record FROM unnest($4::text[]) WITH ORDINALITY AS r(record, ordinality)`,
      [...params, keepRecords, records.slice(keepRecords).map((r) => JSON.stringify(r))],
    );
  return Number(updated.rows[0]?.seq ?? 0);
}
