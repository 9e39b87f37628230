// Follows one project's sessions in a PostgreSQL store as other processes write them. Writers
// bump a session's `seq` and NOTIFY; a notification here is only a wake-up: the follower then asks
// the sessions table which sessions have a `seq` above the one it last saw, and reports those.
// A dropped connection (server restart, pg_terminate_backend, network cut) is reopened with
// backoff, and the first look after it compares every session's `seq`, so writes made while
// disconnected are reported too. Nothing here prints the password: every reason goes through
// `redact`, and only the `host:port/database` label is named.
import { Client, type Notification } from 'pg';
import { redact, storeAddress, type StoreAddress } from './address';
import { connectionReason } from './errors';
import { driverConnectionString } from './ssl-mode';

/** The channel the writers notify (the same as pg-store.ts's NOTIFY_CHANNEL). */
export const FOLLOW_CHANNEL = 'loop_ledger';

export type FollowerState = 'connecting' | 'connected' | 'disconnected' | 'closed';

export interface FollowerStatus {
  state: FollowerState;
  /** `host:port/database`, never the password. */
  store: string;
  /** Why the last connection failed or ended (password-free), while disconnected. */
  reason?: string;
  /** When the next attempt starts (ms from now), while disconnected. */
  retryInMs?: number;
}

export interface FollowerOptions {
  url: string;
  project: string;
  /** First wait after a failure; doubles up to `maxRetryMs` (ms). */
  firstRetryMs?: number;
  maxRetryMs?: number;
}

type Listener<T> = (value: T) => void;

export class StoreFollower {
  readonly address: StoreAddress;
  private client: Client | null = null;
  private readonly seqs = new Map<string, number>();
  private readonly changeListeners = new Set<Listener<string[]>>();
  private readonly stateListeners = new Set<Listener<FollowerStatus>>();
  private current: FollowerStatus;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private wait: number;
  private closed = false;
  /** Sessions named by notifications not looked up yet; `all` asks for a full comparison. */
  private pending = new Set<string>();
  private pendingAll = false;
  private looking: Promise<void> | null = null;
  /** Bumped on each new connection: a look that started on an old one reports nothing. */
  private epoch = 0;

  constructor(private readonly options: FollowerOptions) {
    this.address = storeAddress(options.url);
    this.wait = options.firstRetryMs ?? 250;
    this.current = { state: 'connecting', store: this.address.label };
  }

  get status(): FollowerStatus {
    return this.current;
  }

  /** Called with the ids of sessions whose `seq` moved (or that disappeared). Returns an unsubscribe. */
  onChanged(listener: Listener<string[]>): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onState(listener: Listener<FollowerStatus>): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /**
   * Tells the follower a reader has seen `session` at `seq`, so the next comparison does not
   * report it again (a reader that loaded every session before the follower connected seeds it).
   */
  seen(session: string, seq: number): void {
    if (seq > (this.seqs.get(session) ?? -1)) this.seqs.set(session, seq);
  }

  /** The last `seq` seen for `session` (-1 when none). */
  seqOf(session: string): number {
    return this.seqs.get(session) ?? -1;
  }

  start(): void {
    if (this.closed || this.client !== null || this.retryTimer !== undefined) return;
    void this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const client = this.client;
    this.client = null;
    this.setState({ state: 'closed', store: this.address.label });
    if (client !== null) await client.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const epoch = ++this.epoch;
    // A retry while the server is down keeps saying "disconnected" (with its reason and next
    // retry) until it connects: announcing "connecting" for each attempt would make a status
    // bar flicker for as long as the outage lasts, and a reader sampling the state would see
    // either word depending on how long the refused attempt took.
    if (this.current.state !== 'disconnected')
      this.setState({ state: 'connecting', store: this.address.label });
    const client = new Client({
      connectionString: driverConnectionString(this.options.url),
      connectionTimeoutMillis: 5000,
      application_name: 'loop-ledger-follow',
      // A peer that vanished without closing (a cut network) is noticed by the kernel's probes.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    this.client = client;
    let ended = false;
    const lost = (error?: unknown): void => {
      if (ended) return;
      ended = true;
      void this.lost(client, epoch, error);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message: Notification) => this.wake(message, epoch));
    try {
      await client.connect();
      await client.query(`LISTEN ${FOLLOW_CHANNEL}`);
      if (ended || epoch !== this.epoch) return;
      this.wait = this.options.firstRetryMs ?? 250;
      // Everything the follower may have missed before LISTEN took effect (or while down).
      this.pendingAll = true;
      await this.look(epoch);
      if (epoch === this.epoch && !ended) this.setState({ state: 'connected', store: this.address.label });
    } catch (error) {
      lost(error);
    }
  }

  private async lost(client: Client, epoch: number, error: unknown): Promise<void> {
    if (epoch !== this.epoch) return;
    if (this.client === client) this.client = null;
    await client.end().catch(() => undefined);
    if (this.closed) return;
    const reason =
      error === undefined ? 'the connection ended' : redact(connectionReason(error), this.address);
    const retryInMs = Math.round(this.wait * (0.75 + Math.random() * 0.5));
    this.wait = Math.min(this.wait * 2, this.options.maxRetryMs ?? 5000);
    this.setState({ state: 'disconnected', store: this.address.label, reason, retryInMs });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.closed) void this.connect();
    }, retryInMs);
    this.retryTimer.unref?.();
  }

  /** A notification: a wake-up naming (as a hint) the session that changed. */
  private wake(message: Notification, epoch: number): void {
    if (message.channel !== FOLLOW_CHANNEL || epoch !== this.epoch) return;
    let hint: { project?: unknown; session?: unknown; seq?: unknown } = {};
    try {
      hint = JSON.parse(message.payload ?? '') as typeof hint;
    } catch {
      // Not a payload this tool sends: look at every session.
    }
    if (typeof hint.project === 'string' && hint.project !== this.options.project) return;
    if (typeof hint.session === 'string') {
      if (typeof hint.seq === 'number' && hint.seq <= this.seqOf(hint.session)) return;
      this.pending.add(hint.session);
    } else this.pendingAll = true;
    void this.look(epoch).catch(() => undefined);
  }

  /** Looks up what is pending, one look at a time; wake-ups during a look join the next one. */
  private look(epoch: number): Promise<void> {
    if (this.looking !== null) {
      const again = (): Promise<void> => this.look(epoch);
      return this.looking.then(again, again);
    }
    if (!this.pendingAll && this.pending.size === 0) return Promise.resolve();
    const all = this.pendingAll;
    const sessions = [...this.pending];
    this.pendingAll = false;
    this.pending.clear();
    const run = this.compare(epoch, all, sessions).finally(() => {
      this.looking = null;
    });
    this.looking = run;
    return run;
  }

  private async compare(epoch: number, all: boolean, sessions: string[]): Promise<void> {
    const client = this.client;
    if (client === null || epoch !== this.epoch) return;
    const { project } = this.options;
    let rows: { session: string; seq: string }[];
    try {
      rows = all
        ? (
            await client.query<{ session: string; seq: string }>(
              'SELECT session, seq FROM loop_ledger_sessions WHERE project = $1 AND head IS NOT NULL',
              [project],
            )
          ).rows
        : (
            await client.query<{ session: string; seq: string }>(
              'SELECT session, seq FROM loop_ledger_sessions WHERE project = $1 AND session = ANY($2) AND head IS NOT NULL',
              [project, sessions],
            )
          ).rows;
    } catch (error) {
      // Asked again after the reconnect (a full comparison covers it).
      if (all) this.pendingAll = true;
      else for (const s of sessions) this.pending.add(s);
      throw error;
    }
    if (epoch !== this.epoch) return;
    const changed: string[] = [];
    const present = new Set<string>();
    for (const row of rows) {
      const seq = Number(row.seq);
      present.add(row.session);
      if (seq > this.seqOf(row.session)) {
        this.seqs.set(row.session, seq);
        changed.push(row.session);
      }
    }
    // Sessions that were there and are not any more (removed by `store import --force` and the like).
    for (const session of all ? [...this.seqs.keys()] : sessions)
      if (!present.has(session) && this.seqs.has(session)) {
        this.seqs.delete(session);
        changed.push(session);
      }
    if (changed.length > 0) for (const listener of this.changeListeners) listener(changed);
  }

  private setState(status: FollowerStatus): void {
    const before = this.current;
    this.current = status;
    if (before.state === status.state && before.reason === status.reason && status.state !== 'disconnected')
      return;
    for (const listener of this.stateListeners) listener(status);
  }
}
