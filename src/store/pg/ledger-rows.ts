// A ledger as rows: the session row holds the ledger's JSON without its lists, and the fold of
// its records (records_summary); its epochs, completed actions and iteration records are one
// row each, in order. Loading gives back the same ledger object the file store's reader would
// (keys sorted, as the file has them), and a save writes only what changed: an `iterate` inserts
// one record row and updates the head. A reader that asks only what the fold answers (`status`,
// `iterate`) loads it instead of the records, so its cost does not grow with the loop's length.
import type { Client } from 'pg';
import { addRecord, summarizeRecords, type RecordsSummary } from '../../engine/records-summary';
import type { IterationRecord, Ledger } from '../../engine/types';
import { SCHEMA_VERSION } from '../ledger-file';
import { RECORDS_DIGEST_KEY, RECORDS_SUMMARY_KEY } from '../records-digest';
import { summaryFromJson } from '../summary-shape';

export interface SessionKey {
  project: string;
  session: string;
}

/** A ledger as loaded, with the texts its rows held (a save compares against them). */
export interface StoredLedger {
  ledger: Ledger;
  epochs: string[];
  /** The completed actions as loaded: all of them, or (`actionsPartial`) only those asked for. */
  actions: string[];
  actionsPartial: boolean;
  /** How many completed actions the session holds (their positions are 0 to this − 1). */
  actionCount: number;
  /**
   * The records as loaded; null when only their fold was (then `ledger.iterations` is empty, and
   * a save takes the write's `iterations` as records appended after `summary.count`).
   */
  records: IterationRecord[] | null;
  /** The fold of every record of the session. */
  summary: RecordsSummary;
  /** The stored outcome (JSON) of `wanted.requestId`'s earlier commit; null when it has none. */
  done: string | null;
}

/**
 * What a reader needs. `records`: `all` loads every record; `summary` their stored fold instead,
 * when the session has one. `actions`, when given: only those of the completed actions are loaded
 * (an `iterate` asks whether its own action ids are done, and appends), not the session's list.
 */
export interface Wanted {
  records: 'all' | 'summary';
  actions?: readonly string[];
  /** A write's request id: its outcome, when it committed before, comes back as `done`. */
  requestId?: string;
}

export const EVERYTHING: Wanted = { records: 'all' };

/** Keys kept in rows of their own, or (the seal) meaningful only inside a file. */
const LISTS = new Set(['iterations', 'epochs', 'completed_actions', RECORDS_DIGEST_KEY, RECORDS_SUMMARY_KEY]);

function headOf(ledger: Ledger): string {
  const head: Record<string, unknown> = {};
  for (const [key, value] of Object.entries({ ...ledger, schema_version: SCHEMA_VERSION }))
    if (!LISTS.has(key) && value !== undefined) head[key] = value;
  return JSON.stringify(head);
}

/**
 * The session's ledger, or null when it has none. `lock` takes the row for this transaction;
 * `wanted` says whether the records or only their fold are loaded.
 */
export async function loadStored(
  client: Client,
  key: SessionKey,
  lock: boolean,
  wanted: Wanted = EVERYTHING,
): Promise<StoredLedger | null> {
  const params = [key.project, key.session];
  const row = await client.query<{
    head: string | null;
    has_epochs: boolean;
    records_summary: string | null;
  }>(
    `SELECT head, has_epochs, records_summary FROM loop_ledger_sessions WHERE project = $1 AND session = $2${lock ? ' FOR UPDATE' : ''}`,
    params,
  );
  const found = row.rows[0];
  if (found === undefined || found.head === null) return null;
  // One round trip for the lists; positions run from 0 without gaps, so the count is the top one + 1.
  const partial = wanted.actions !== undefined;
  // (A statement of its own after the row lock, so it sees what the lock's previous holder committed.)
  type Lists = { epochs: string[]; actions: string[]; action_count: number; done: string | null };
  const lists = await client.query<Lists>(
    `SELECT
       ARRAY(SELECT entry FROM loop_ledger_epochs WHERE project = $1 AND session = $2 ORDER BY idx) AS epochs,
       ARRAY(SELECT action FROM loop_ledger_actions WHERE project = $1 AND session = $2
             AND ($3::text[] IS NULL OR action = ANY($3::text[])) ORDER BY position) AS actions,
       (SELECT coalesce(max(position) + 1, 0)::int FROM loop_ledger_actions
        WHERE project = $1 AND session = $2) AS action_count,
       (SELECT outcome FROM loop_ledger_requests
        WHERE project = $1 AND session = $2 AND request_id = $4) AS done`,
    [
      ...params,
      partial ? (wanted.actions ?? []).map((a) => JSON.stringify(a)) : null,
      wanted.requestId ?? null,
    ],
  );
  const listed = lists.rows[0] as Lists;
  const epochs = listed.epochs;
  const actions = listed.actions.map((a) => JSON.parse(a) as string);
  // A fold that is missing (written before the column) or not a fold's shape: the records are read.
  const stored = wanted.records === 'summary' ? storedSummary(found.records_summary) : null;
  const records =
    stored !== null
      ? null
      : (
          await client.query<{ record: string }>(
            'SELECT record FROM loop_ledger_iterations WHERE project = $1 AND session = $2 ORDER BY n',
            params,
          )
        ).rows.map((r) => JSON.parse(r.record) as IterationRecord);
  const fields: Record<string, unknown> = {
    ...(JSON.parse(found.head) as Record<string, unknown>),
    completed_actions: actions,
    iterations: records ?? [],
  };
  if (found.has_epochs) fields.epochs = epochs.map((e) => JSON.parse(e) as unknown);
  const ledger: Record<string, unknown> = {};
  for (const k of Object.keys(fields).sort()) ledger[k] = fields[k];
  const summary = stored ?? summarizeRecords(records ?? []);
  return {
    ledger: ledger as unknown as Ledger,
    epochs,
    actions,
    actionsPartial: partial,
    actionCount: listed.action_count,
    records,
    summary,
    done: listed.done,
  };
}

function storedSummary(text: string | null): RecordsSummary | null {
  if (text === null) return null;
  try {
    return summaryFromJson(JSON.parse(text));
  } catch {
    return null;
  }
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
  // Records never change once written: the same objects as loaded are kept as rows. Loaded as a
  // fold only, the old records stay as they are and the write's list holds just the new ones.
  const records = write.iterations;
  const appended = old !== null && old.records === null;
  const keepRecords = appended
    ? old.summary.count
    : sharedPrefix(old?.records ?? [], records, (a, b) => a === b);
  const added = appended ? records : records.slice(keepRecords);
  // The fold carried forward over the new records when the old ones were all kept, else folded anew.
  const summary =
    old !== null && keepRecords === old.summary.count
      ? added.reduce(addRecord, old.summary)
      : summarizeRecords(records);
  const updated = await client.query<{ seq: string }>(
    `UPDATE loop_ledger_sessions
     SET head = $3, has_epochs = $4, records_summary = $5, seq = seq + 1, updated_at = now()
     WHERE project = $1 AND session = $2 RETURNING seq`,
    [...params, headOf(write), write.epochs !== undefined, JSON.stringify(summary)],
  );
  const epochs = (write.epochs ?? []).map((e) => JSON.stringify(e));
  const keepEpochs = sharedPrefix(old?.epochs ?? [], epochs, (a, b) => a === b);
  // Rows past what is kept are removed (an `old` of null: the session's rows are all replaced).
  if (old === null || old.epochs.length > keepEpochs)
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
  // Loaded in part, the actions can only have been appended to (iterate): the new ones go after
  // every stored one.
  if (old?.actionsPartial === true && keepActions !== old.actions.length)
    throw new Error('a write over a partly loaded list of completed actions changed that list');
  const base = old?.actionsPartial === true ? old.actionCount : keepActions;
  if (old === null || (!old.actionsPartial && old.actions.length > keepActions))
    await client.query(
      'DELETE FROM loop_ledger_actions WHERE project = $1 AND session = $2 AND position >= $3',
      [...params, keepActions],
    );
  if (actions.length > keepActions)
    await client.query(
      `INSERT INTO loop_ledger_actions (project, session, position, action)
       SELECT $1, $2, a.ordinality - 1 + $3, a.action FROM unnest($4::text[]) WITH ORDINALITY AS a(action, ordinality)`,
      [...params, base, actions.slice(keepActions).map((a) => JSON.stringify(a))],
    );
  if (old === null || (old.records !== null && old.records.length > keepRecords))
    await client.query('DELETE FROM loop_ledger_iterations WHERE project = $1 AND session = $2 AND n > $3', [
      ...params,
      keepRecords,
    ]);
  if (added.length > 0)
    await client.query(
      `INSERT INTO loop_ledger_iterations (project, session, n, record)
       SELECT $1, $2, r.ordinality + $3, r.record FROM unnest($4::text[]) WITH ORDINALITY AS r(record, ordinality)`,
      [...params, keepRecords, added.map((r) => JSON.stringify(r))],
    );
  return Number(updated.rows[0]?.seq ?? 0);
}
