// The Sessions tree's source when a PostgreSQL store is chosen: one live reader and LISTEN
// follower per workspace folder (each folder is a project, named by `loopLedger.project` or the
// folder's name, the CLI's default). The PostgreSQL bundle (dist/pg.js, with the driver) is
// loaded here on first use, never for the file store. Everything is asynchronous: the extension
// host never waits on the network.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { LiveSession, LiveStore } from '../../app/ledger/pg-live';
import { chooseStore, loadPgBundle, withPassword } from '../../app/ledger/store-choice';
import { status } from '../../engine/status';
import type { FollowerStatus } from '../../store/pg/follower';
import type { TimedEntry } from '../sessions/sessionEntry';
import type { SessionSource, StoreWrites } from '../sessions/sessionSource';
import type { WorkspaceRoot } from '../workspace/roots';

/** A read or write that cannot reach the server gives up after this long (then the follower retries). */
const READ_RETRY_MS = 3_000;
const WRITE_RETRY_MS = 10_000;

export interface LinkEvents {
  /** Another process (or this one) wrote `session` under `root`. */
  sessionChanged(root: string, session: string): void;
  /** A folder's first read failed and its follower is connected now: read everything again. */
  readAgain(): void;
}

export interface LinkState {
  /** `host:port/database`. */
  readonly store: string;
  readonly state: FollowerStatus['state'];
  readonly reason?: string;
  readonly retryInMs?: number;
  /** The folders' projects. */
  readonly projects: readonly string[];
}

export class StoreLink implements SessionSource, vscode.Disposable {
  private readonly lives = new Map<string, { project: string; live: Promise<LiveStore> }>();
  private readonly failed = new Set<string>();
  private readonly stateChanged = new vscode.EventEmitter<LinkState>();
  readonly onDidChangeState = this.stateChanged.event;
  private disposed = false;
  private lastRead: string | undefined;

  constructor(
    /** The URL from the settings (no password). */
    private readonly url: string,
    /** From secret storage; asked for once, as the link is made. */
    private readonly password: Promise<string | undefined>,
    private readonly projectSetting: string | undefined,
    private readonly events: LinkEvents,
  ) {}

  /** The URL the driver is given: with the password from secret storage, in memory only. */
  private async fullUrl(): Promise<string> {
    return withPassword(this.url, await this.password.catch(() => undefined));
  }

  private projectOf(root: WorkspaceRoot): string {
    return chooseStore({
      url: this.url,
      from: 'loopLedger.store',
      project: this.projectSetting ?? root.name,
      projectFrom: 'loopLedger.project',
      root: root.path,
    }).project;
  }

  private live(root: WorkspaceRoot): Promise<LiveStore> {
    const known = this.lives.get(root.path);
    if (known) return known.live;
    const project = this.projectOf(root);
    // Loaded after the current turn: requiring the bundle is synchronous file reading.
    const live = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const url = await this.fullUrl();
      const opened = loadPgBundle().openLiveStore({ url, project, retryMs: READ_RETRY_MS });
      opened.follower.onChanged((sessions) => {
        for (const session of sessions) this.events.sessionChanged(root.path, session);
      });
      opened.follower.onState((s) => {
        if (s.state === 'connected' && this.failed.delete(root.path)) this.events.readAgain();
        this.fireState();
      });
      return opened;
    });
    this.lives.set(root.path, { project, live });
    return live;
  }

  async readAll(root: WorkspaceRoot): Promise<TimedEntry[]> {
    const live = await this.live(root);
    try {
      const sessions = await live.readAll();
      this.failed.delete(root.path);
      this.lastRead = undefined;
      // The follower reports only what changes after this snapshot.
      for (const s of sessions) live.follower.seen(s.session, s.seq);
      return sessions.map((s) => this.entryOf(root, live.label, s));
    } catch (error) {
      this.failed.add(root.path);
      this.lastRead = live.redact((error as Error).message);
      this.fireState();
      return [];
    } finally {
      // Started after the first snapshot seeded it, so it does not report every session again.
      if (!this.disposed) live.follower.start();
    }
  }

  async readOne(root: WorkspaceRoot, session: string): Promise<TimedEntry | undefined> {
    const live = await this.live(root);
    try {
      const found = await live.readOne(session);
      if (found) live.follower.seen(found.session, found.seq);
      return found && this.entryOf(root, live.label, found);
    } catch (error) {
      // Not "no such session": the tree keeps what it shows, and everything is read again once
      // the follower is connected again (the seq it saw for this session is already counted).
      this.failed.add(root.path);
      this.fireState();
      throw error;
    }
  }

  writes(rootPath: string): StoreWrites | undefined {
    const entry = this.lives.get(rootPath);
    const root = vscode.workspace.workspaceFolders?.find((f) => f.uri.fsPath === rootPath);
    const project =
      entry?.project ?? (root ? this.projectOf({ name: root.name, path: rootPath }) : undefined);
    if (project === undefined) return undefined;
    return {
      label: `${this.label} (${project})`,
      cliFlags: [
        ['store', this.url],
        ['project', project],
      ],
      childEnv: async () => {
        const password = await this.password.catch(() => undefined);
        return {
          LOOP_LEDGER_STORE: this.url,
          LOOP_LEDGER_PROJECT: project,
          // The driver reads it when the URL has none (the settings' URL never has one).
          ...(password ? { PGPASSWORD: password } : {}),
        };
      },
      run: async (write) => {
        // One connection per write, with a request id of its own: a retry after a lost
        // connection is recognised by the store, and two writes are never taken for one.
        const store = loadPgBundle().createPgStore({
          url: await this.fullUrl(),
          project,
          root: rootPath,
          requestId: randomUUID(),
          retryMs: WRITE_RETRY_MS,
        });
        try {
          return await write(store);
        } finally {
          await store.end();
        }
      },
    };
  }

  /** `host:port/database` of the store in the settings. */
  get label(): string {
    try {
      const parsed = new URL(this.url);
      return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}${parsed.pathname || '/'}`;
    } catch {
      return 'the ledger store';
    }
  }

  /** The worst state over the folders (one disconnected folder is the store disconnected). */
  async state(): Promise<LinkState> {
    const lives = await Promise.all([...this.lives.values()].map((l) => l.live));
    const rank = { disconnected: 0, connecting: 1, connected: 2, closed: 3 } as const;
    const statuses = lives.map((l) => l.follower.status).sort((a, b) => rank[a.state] - rank[b.state]);
    const worst = statuses[0];
    const projects = [...this.lives.values()].map((l) => l.project);
    if (!worst) return { store: this.label, state: 'connecting', projects };
    const reason = worst.reason ?? (worst.state !== 'connected' ? this.lastRead : undefined);
    return { store: worst.store, state: worst.state, reason, retryInMs: worst.retryInMs, projects };
  }

  private fireState(): void {
    if (this.disposed) return;
    void this.state().then((s) => {
      if (!this.disposed) this.stateChanged.fire(s);
    });
  }

  private entryOf(root: WorkspaceRoot, label: string, s: LiveSession): TimedEntry {
    const path = `postgres://${label}#${this.lives.get(root.path)?.project ?? ''}/${s.session}`;
    const base = { root: root.path, session: s.session, path, legacy: false };
    try {
      return {
        entry: { kind: 'ledger', ...base, ledger: s.ledger, status: status(s.ledger).payload },
        mtimeMs: s.updatedMs,
      };
    } catch (error) {
      return {
        entry: { kind: 'broken', ...base, problem: `unreadable ledger: ${(error as Error).message}` },
        mtimeMs: s.updatedMs,
      };
    }
  }

  dispose(): void {
    this.disposed = true;
    this.stateChanged.dispose();
    for (const { live } of this.lives.values()) void live.then((l) => l.close()).catch(() => undefined);
    this.lives.clear();
  }
}
