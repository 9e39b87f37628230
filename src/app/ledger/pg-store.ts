// The ledger operations on a PostgreSQL store (the bundle dist/pg.js, required only when such a
// store is selected). Each write is one transaction holding the session's row (SELECT … FOR
// UPDATE) around the same engine step the file store runs under its lock (steps.ts), so
// writers on any number of machines are serialised per session exactly like writers on one.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Client } from 'pg';
import type { BriefPacket, DiffInput, DiffText } from '../../engine/brief';
import type { CloseInput } from '../../engine/close';
import type { EngineeringIterateInput } from '../../engine/engineering/iterate';
import { EXIT } from '../../engine/refusal';
import type { IterationRecord, Ledger } from '../../engine/types';
import {
  ledgerPath,
  listSessions,
  readLedgerFile,
  saveLedgerFile,
  sessionIdProblem,
  withLock,
  writeTargetOutsideRoot,
} from '../../store';
import { summaryOfRead } from '../../store/discover';
import type { LedgerRead } from '../../store/ledger-file';
import { redact } from '../../store/pg/address';
import { snapshot, StoreConnection } from '../../store/pg/connection';
import { StoreSchemaError, StoreUnreachableError } from '../../store/pg/errors';
import {
  loadStored,
  saveStored,
  EVERYTHING,
  type Wanted,
  type SessionKey,
  type StoredLedger,
} from '../../store/pg/ledger-rows';
import { keepBrief, keptBrief } from '../../store/pg/briefs';
import { pruneRequests } from '../../store/pg/requests';
import { migrate } from '../../store/pg/schema';
import { caseTwinRefusal, openSettingsProblem, openStep, type OpenOpInput } from '../contract/operations';
import type { LedgerStoreOps, StoreSelection, TransferPayload } from './store';
import { briefStep, closeStep, iterateStep, resumeStep, type LedgerStep, type StepResult } from './steps';
import { scoreOutcome, statusOutcome, type BriefOpInput } from './operations';
import { operationAsync, Refused, type Outcome } from '../outcome';

/** The channel writers notify: `{"project","session","seq"}`, a wake-up for readers, never the data. */
export const NOTIFY_CHANNEL = 'loop_ledger';

/** A store one process keeps open for many writes, each with a request id of its own. */
export interface PgLedgerStoreOps extends LedgerStoreOps {
  /**
   * The same store over the same connection, sending `requestId` with its writes: a process that
   * writes many times (a server, the extension, a load test's writer) gives each write its own id,
   * as each CLI process has its own. `end` on either closes the shared connection.
   */
  withRequestId(requestId: string): PgLedgerStoreOps;
}

export function createPgStore(selection: StoreSelection): PgLedgerStoreOps {
  return new PgLedgerStore(selection);
}

class PgLedgerStore implements PgLedgerStoreOps {
  private readonly connection: StoreConnection;
  readonly label: string;

  constructor(
    private readonly selection: StoreSelection,
    connection?: StoreConnection,
  ) {
    this.connection = connection ?? new StoreConnection({ url: selection.url, retryMs: selection.retryMs });
    this.label = this.connection.address.label;
  }

  withRequestId(requestId: string): PgLedgerStore {
    return new PgLedgerStore({ ...this.selection, requestId }, this.connection);
  }

  private key(session: string): SessionKey {
    const problem = sessionIdProblem(session);
    if (problem) throw new Refused(EXIT.usage, [problem]);
    return { project: this.selection.project, session };
  }

  private absent(session: string): Refused {
    return new Refused(EXIT.usage, [
      `${session}: no ledger in the PostgreSQL store ${this.label} (project ${JSON.stringify(this.selection.project)}) (open one first)`,
    ]);
  }

  /** Runs `body`, telling a store failure in one line (never the password) with its exit code. */
  private async guard<P>(body: () => Promise<Outcome<P>>): Promise<Outcome<P>> {
    const say = (exitCode: Outcome<P>['exitCode'], message: string): Outcome<P> => ({
      exitCode,
      findings: [{ message: redact(message, this.connection.address) }],
    });
    try {
      // Contract files and the like are read inside: their failures are told as the file store tells them.
      const outcome = await operationAsync(() => undefined, body);
      return {
        ...outcome,
        findings: outcome.findings.map((f) => ({
          ...f,
          message: redact(f.message, this.connection.address),
        })),
      };
    } catch (error) {
      if (error instanceof StoreUnreachableError) return say(EXIT.system, error.message);
      if (error instanceof StoreSchemaError) return say(EXIT.usage, error.message);
      const e = error as { code?: unknown; message?: unknown };
      if (typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
        const first = String(e.message ?? '').split('\n')[0];
        return say(EXIT.system, `PostgreSQL ledger store ${this.label}: ${first} (SQLSTATE ${e.code})`);
      }
      throw error;
    }
  }

  /**
   * One write: the session's row locked, the request id checked (a retry of a committed write
   * gets the outcome it had), the step run on the ledger as loaded, its changes saved, readers
   * notified, committed. A transaction that did not commit is sent again whole after a lost
   * connection (StoreConnection.run). `create`: the step accepts a session with no ledger (open).
   * `wanted`: whether the step reads the old records or only their fold (then it gets the
   * ledger with no records and the fold, and returns just the records it adds).
   */
  private write<P>(
    session: string,
    create: boolean,
    wanted: Wanted,
    step: (ledger: Ledger | null, stored: StoredLedger | null) => StepResult<P>,
    remember: Remember<P> = AS_IS,
  ): Promise<Outcome<P>> {
    return this.guard(async () => {
      const key = this.key(session);
      return this.connection.run(async (client) => {
        await client.query('BEGIN');
        try {
          const { outcome, wrote } = await this.writeIn(client, key, create, wanted, step, remember);
          await client.query(wrote ? 'COMMIT' : 'ROLLBACK');
          return outcome;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      });
    });
  }

  private async writeIn<P>(
    client: Client,
    key: SessionKey,
    create: boolean,
    wanted: Wanted,
    step: (ledger: Ledger | null, stored: StoredLedger | null) => StepResult<P>,
    remember: Remember<P>,
  ): Promise<{ outcome: Outcome<P>; wrote: boolean }> {
    const params = [key.project, key.session];
    if (create) {
      await refuseCaseTwin(client, key);
      await client.query(
        'INSERT INTO loop_ledger_sessions (project, session) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        params,
      );
    }
    const requestId = this.selection.requestId;
    const old = await loadStored(client, key, true, { ...wanted, requestId });
    if (old?.done != null) return { outcome: await remember.recalled(client, key, old.done), wrote: false };
    if (old === null && !create) throw this.absent(key.session);
    const { write, result } = step(old?.ledger ?? null, old);
    // A refusal or a step that changes nothing writes nothing (the caller rolls back).
    if (write === undefined || result.exitCode !== 0) return { outcome: result, wrote: false };
    const seq = await saveStored(client, key, old, write);
    const remembered = await remember.saved(client, key, result);
    // The request remembered and readers woken in one statement (one round trip fewer under the lock).
    await client.query(
      `WITH remembered AS (
         INSERT INTO loop_ledger_requests (project, session, request_id, outcome, seq)
         VALUES ($1, $2, $3, $4, $5) RETURNING seq)
       SELECT pg_notify($6, $7) FROM remembered`,
      [
        ...params,
        requestId,
        remembered,
        seq,
        NOTIFY_CHANNEL,
        JSON.stringify({ project: key.project, session: key.session, seq }),
      ],
    );
    await pruneRequests(client, key, seq);
    return { outcome: result, wrote: true };
  }

  /** The session's ledger as one consistent snapshot (`wanted`: its records, or only their fold). */
  private read<P>(
    session: string,
    wanted: Wanted,
    use: (stored: StoredLedger) => Outcome<P>,
  ): Promise<Outcome<P>> {
    return this.guard(async () => {
      const key = this.key(session);
      const stored = await this.connection.run((client) =>
        snapshot(client, () => loadStored(client, key, false, wanted)),
      );
      if (stored === null) throw this.absent(session);
      return use(stored);
    });
  }

  open(session: string, input: OpenOpInput) {
    const settings = openSettingsProblem(input);
    if (settings) return Promise.resolve(settings);
    return this.write(session, true, EVERYTHING, openStep(this.selection.root, session, input));
  }

  /**
   * Reads the old records only through their fold (as the file store's sealed path does), and of
   * the completed actions only those it names: its cost does not grow with the loop's length.
   */
  iterate(
    session: string,
    input: EngineeringIterateInput,
    attach?: (before: Ledger, after: Ledger) => Ledger,
  ) {
    const wanted: Wanted = { records: 'summary', actions: input.actions ?? [] };
    const step = withFold(iterateStep(input));
    if (attach === undefined) return this.write(session, false, wanted, step);
    return this.write(session, false, wanted, (ledger, stored) =>
      attached(step(ledger, stored), ledger as Ledger, attach),
    );
  }

  resume(session: string) {
    return this.write(session, false, EVERYTHING, (ledger) => resumeStep(ledger as Ledger));
  }

  close(session: string, input: CloseInput) {
    const step = closeStep(input);
    return this.write(session, false, EVERYTHING, (ledger) => step(ledger as Ledger));
  }

  /** Reads the contract only (never the records); the packet is kept in the store with the ledger. */
  brief(session: string, input: BriefOpInput<DiffInput>) {
    const step = briefStep(input);
    const wanted: Wanted = { records: 'summary', actions: [] };
    return this.write(session, false, wanted, (ledger) => step(ledger as Ledger), KEEP_BRIEF);
  }

  storedBrief(session: string, briefId: string | null) {
    return this.guard(async () => {
      const key = this.key(session);
      const found = await this.connection.run((client) =>
        snapshot(client, async () => {
          const row = await client.query<{ head: string | null }>(
            'SELECT head FROM loop_ledger_sessions WHERE project = $1 AND session = $2',
            [key.project, key.session],
          );
          const head = row.rows[0]?.head;
          if (head == null) return null;
          const pending =
            (JSON.parse(head) as { pending_brief?: { brief_id?: string } | null }).pending_brief?.brief_id ??
            null;
          const id = briefId ?? pending;
          return { pending, packet: id === null ? null : await keptBrief(client, key, id) };
        }),
      );
      if (found === null) throw this.absent(session);
      return { exitCode: 0 as const, payload: found, findings: [] };
    });
  }

  update<P>(session: string, requestId: string, step: (ledger: Ledger | null) => StepResult<P>) {
    // Its own request id over the same connection: a driver's writes are many commands, not one.
    return this.withRequestId(requestId).write(session, true, EVERYTHING, (ledger) => step(ledger));
  }

  check() {
    return this.guard(async () => {
      await this.connection.run((client) => client.query('SELECT 1'));
      return { exitCode: 0 as const, payload: { store: this.label }, findings: [] };
    });
  }

  load(session: string, records: 'all' | 'summary') {
    return this.guard(async () => {
      const key = this.key(session);
      const wanted: Wanted = records === 'all' ? EVERYTHING : { records: 'summary' };
      const found = await this.connection.run((client) =>
        snapshot(client, async () => {
          const stored = await loadStored(client, key, false, wanted);
          if (stored === null) return null;
          const row = await client.query<{ seq: string }>(
            'SELECT seq FROM loop_ledger_sessions WHERE project = $1 AND session = $2',
            [key.project, key.session],
          );
          return { ledger: stored.ledger, count: stored.summary.count, seq: Number(row.rows[0]?.seq ?? 0) };
        }),
      );
      if (found === null) throw this.absent(session);
      return { exitCode: 0 as const, payload: found, findings: [] };
    });
  }

  /** Reads the head, epochs, actions and the records' fold: never the records themselves. */
  status(session: string) {
    return this.read(session, { records: 'summary' }, (stored) =>
      statusOutcome(stored.ledger, stored.summary),
    );
  }

  score(session: string, measures: string[]) {
    return this.read(session, EVERYTHING, (stored) => scoreOutcome(stored.ledger, measures));
  }

  list() {
    return this.guard(async () => {
      const { project, root } = this.selection;
      const ledgers = await this.connection.run((client) =>
        snapshot(client, async () => {
          const names = await client.query<{ session: string }>(
            'SELECT session FROM loop_ledger_sessions WHERE project = $1 AND head IS NOT NULL',
            [project],
          );
          const out: StoredLedger[] = [];
          for (const { session } of names.rows) {
            const stored = await loadStored(client, { project, session }, false);
            if (stored !== null) out.push(stored);
          }
          return out;
        }),
      );
      // Sorted as the file store sorts (by UTF-16 code units), whatever the database's collation.
      ledgers.sort((a, b) =>
        a.ledger.session < b.ledger.session ? -1 : a.ledger.session > b.ledger.session ? 1 : 0,
      );
      const sessions = ledgers.map((s) =>
        summaryOfRead(s.ledger.session, this.addressOf(s.ledger.session), false, okRead(s.ledger)),
      );
      return { exitCode: 0 as const, payload: { root, sessions }, findings: [] };
    });
  }

  /** Where a session lives, as `list` reports it: the store and project, no password. */
  private addressOf(session: string): string {
    return `postgres://${this.label}#${this.selection.project}/${session}`;
  }

  migrate() {
    return this.guard(async () => {
      const { from, to } = await this.connection.run((client) => migrate(client, this.label), false);
      return {
        exitCode: 0 as const,
        payload: { store: this.label, from_version: from, to_version: to },
        findings: [],
      };
    });
  }

  importFiles(force: boolean) {
    return this.guard(async () => {
      const payload = this.transfer();
      for (const summary of listSessions(this.selection.root)) {
        const read = summary.error === undefined ? readLedgerFile(summary.path) : undefined;
        if (read?.kind !== 'ok') {
          payload.skipped.push({ session: summary.session, reason: summary.error ?? 'unreadable ledger' });
          continue;
        }
        const key = this.key(summary.session);
        const copied = await this.connection.run(async (client) => {
          await client.query('BEGIN');
          try {
            await client.query(
              'INSERT INTO loop_ledger_sessions (project, session) VALUES ($1, $2) ON CONFLICT DO NOTHING',
              [key.project, key.session],
            );
            const old = await loadStored(client, key, true);
            if (old !== null && !force) {
              await client.query('ROLLBACK');
              return false;
            }
            // Written in full, like a fresh ledger: no old rows are kept.
            await saveStored(client, key, null, read.ledger);
            await client.query('COMMIT');
            return true;
          } catch (error) {
            await client.query('ROLLBACK').catch(() => undefined);
            throw error;
          }
        });
        if (copied) payload.sessions.push(key.session);
        else
          payload.skipped.push({
            session: key.session,
            reason: 'already in the store (--force replaces it)',
          });
      }
      return { exitCode: 0 as const, payload, findings: [] };
    });
  }

  exportFiles(force: boolean) {
    return this.guard(async () => {
      const payload = this.transfer();
      const { project, root } = this.selection;
      const names = await this.connection.run((client) =>
        client.query<{ session: string }>(
          'SELECT session FROM loop_ledger_sessions WHERE project = $1 AND head IS NOT NULL',
          [project],
        ),
      );
      const sessions = names.rows.map((r) => r.session).sort();
      for (const session of sessions) {
        const problem = sessionIdProblem(session);
        if (problem) {
          payload.skipped.push({ session, reason: problem });
          continue;
        }
        const path = ledgerPath(root, session);
        // The same confinement as every file-store write: a `.loop` a cloned repository carries as
        // a symbolic link out of the root is refused, never written through.
        const outside = writeTargetOutsideRoot(root, path);
        if (outside !== null) throw new Refused(EXIT.usage, [`${session}: ${outside}`]);
        if (existsSync(path) && !force) {
          payload.skipped.push({ session, reason: `${path} exists (--force replaces it)` });
          continue;
        }
        const stored = await this.connection.run((client) =>
          snapshot(client, () => loadStored(client, { project, session }, false)),
        );
        if (stored === null) continue; // removed meanwhile
        withLock(path, () => saveLedgerFile(path, stored.ledger));
        payload.sessions.push(session);
      }
      return { exitCode: 0 as const, payload, findings: [] };
    });
  }

  private transfer(): TransferPayload {
    const { project, root } = this.selection;
    return { store: this.label, project, root, sessions: [], skipped: [] };
  }

  end(): Promise<void> {
    return this.connection.close();
  }
}

/**
 * What a write remembers under its request id, and how a retry reads it back: by default the
 * outcome's JSON. A brief's outcome holds its packet (up to a 20 MiB diff), which the briefs
 * table already keeps: the remembered outcome names it instead.
 */
interface Remember<P> {
  saved(client: Client, key: SessionKey, result: Outcome<P>): Promise<string>;
  recalled(client: Client, key: SessionKey, remembered: string): Promise<Outcome<P>>;
}

const AS_IS: Remember<never> = {
  saved: (_client, _key, result) => Promise.resolve(JSON.stringify(result)),
  recalled: (_client, _key, remembered) => Promise.resolve(JSON.parse(remembered) as never),
};

const KEEP_BRIEF: Remember<BriefPacket<DiffText>> = {
  async saved(client, key, result) {
    const packet = result.payload as BriefPacket<DiffText>;
    await keepBrief(client, key, packet.brief_id, JSON.stringify(packet));
    return JSON.stringify({ ...result, payload: undefined, brief_id: packet.brief_id });
  },
  async recalled(client, key, remembered) {
    const done = JSON.parse(remembered) as Outcome<BriefPacket> & { brief_id?: string };
    if (done.brief_id === undefined) return done;
    const packet = await keptBrief(client, key, done.brief_id);
    if (packet !== null) return { exitCode: done.exitCode, payload: packet, findings: done.findings };
    return {
      exitCode: EXIT.usage,
      findings: [
        {
          message: `brief ${done.brief_id} was recorded by this request; its packet is no longer kept (assemble the brief again)`,
        },
      ],
    };
  },
};

/** An accepted iteration's write as `attach` changes it; the payload is its (changed) new record. */
function attached(
  step: StepResult<IterationRecord>,
  before: Ledger,
  attach: (before: Ledger, after: Ledger) => Ledger,
): StepResult<IterationRecord> {
  if (step.write === undefined || step.result.exitCode !== 0) return step;
  const write = attach(before, step.write);
  const record = write.iterations[write.iterations.length - 1] ?? step.result.payload;
  return { write, result: { ...step.result, payload: record } };
}

/** A step over an existing ledger, given the fold of its records as loaded. */
function withFold<P>(
  step: LedgerStep<P>,
): (ledger: Ledger | null, stored: StoredLedger | null) => StepResult<P> {
  return (ledger, stored) => step(ledger as Ledger, stored?.summary);
}

/**
 * The file store's rule on PostgreSQL: a new session whose id differs only in case from one the
 * project holds is refused, so `store export` can always write the project's ledgers to a
 * folder on macOS or Windows. The advisory lock on the id's lower-case spelling serialises two
 * such opens racing on different machines (neither would see the other's uncommitted row).
 */
async function refuseCaseTwin(client: Client, key: SessionKey): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
    JSON.stringify(['loop-ledger case', key.project, key.session.toLowerCase()]),
  ]);
  const twin = await client.query<{ session: string }>(
    `SELECT session FROM loop_ledger_sessions
     WHERE project = $1 AND lower(session) = lower($2) AND session <> $2 AND head IS NOT NULL
     ORDER BY session LIMIT 1`,
    [key.project, key.session],
  );
  const found = twin.rows[0];
  if (found !== undefined) throw caseTwinRefusal(key.session, found.session);
}

function okRead(ledger: Ledger): LedgerRead {
  return { kind: 'ok', ledger, text: '', format: 'loop-ledger', records: null };
}

/** A request id for a command that was given none: this process's writes, retried, stay one. */
export function newRequestId(): string {
  return randomUUID();
}

// The extension's live reader and follower travel in this same bundle.
export { openLiveStore } from './pg-live';
