import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import * as vscode from 'vscode';
import type { WorkspaceRoot } from '../workspace/roots';
import { epochsOf } from './epochs';
import { EpochPages, type EpochAt, type EpochPage } from './epochPages';
import type { EpochNode, FolderNode, IterationNode, OlderNode, SessionNode, SessionsNode } from './nodes';
import type { TimedEntry } from './sessionEntry';
import { SessionsReader } from './sessionsReader';
import type { SessionSource, StoreWrites } from './sessionSource';
import { nodeId, treeItemFor } from './treeItems';

type Folder = { folder: FolderNode; sessions: Map<string, SessionNode> };

/**
 * Iteration rows fetched at a time under one epoch of a long ledger (its newest first, then
 * "Show older iterations…" for each further page): tens of thousands of rows at once would cross
 * to the host and into the view in one piece, and the session's overview charts every iteration.
 */
export const EPOCH_ROWS = 1_000;

/**
 * How long after a session's change the tree announces it once more. VS Code can drop a row's
 * refresh that reaches it while it is still fetching that row (the row then keeps the words it had
 * before the write until the next write: seen in a real VS Code under load, the status bar showing
 * a session closed while its row still said "open"). The second announcement, when things have
 * settled, re-renders that one row; changes in between move it later rather than adding more.
 */
export const SETTLE_MS = 1_000;

/**
 * The Sessions view: (folder →) session → epoch → iteration. Sessions are read off the host's
 * thread (`SessionsReader`: each ledger parsed once, in a worker) on first use and then kept; a ledger file change re-reads that one
 * session and refreshes only its node (see `refreshFile`). Until the first read finishes,
 * `getChildren` hands VS Code a promise (it shows its progress bar, not the welcome text).
 */
export class SessionsTreeProvider implements vscode.TreeDataProvider<SessionsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SessionsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly sessionsChanged = new vscode.EventEmitter<void>();
  /** Fires after any session was added, changed or removed, and after a full read (the status bar listens). */
  readonly onDidChangeSessions = this.sessionsChanged.event;
  private readonly readStarted = new vscode.EventEmitter<Promise<unknown>>();
  /** Fires with each read of every root as it starts (the view shows its progress bar until it settles). */
  readonly onDidStartReading = this.readStarted.event;

  /** root path → folder node and its sessions by id; undefined until read. */
  private folders: Map<string, Folder> | undefined;
  private loading: Promise<Map<string, Folder>> | undefined;
  /** Bumped by refreshAll, so a read that started before it is never installed after it. */
  private generation = 0;
  /** One re-read at a time per session: the watcher and the poll may report one write twice. */
  private readonly rereads = new Map<string, Promise<unknown>>();
  /** A ledger store the sessions are read from instead of the files (the settings choose it). */
  private source: SessionSource | undefined;
  /** The second announcement of a change, per node ('root' for the whole tree); see SETTLE_MS. */
  private readonly settling = new Map<SessionsNode | 'root', ReturnType<typeof setTimeout>>();
  /** The rows shown under each expanded epoch of a long ledger, by the epoch's node id. */
  private readonly pages: EpochPages;

  /** `reader`: where ledgers are read (a worker thread in the extension; inline by default). */
  constructor(
    private readonly roots: () => WorkspaceRoot[],
    readonly reader: SessionsReader = new SessionsReader(undefined),
  ) {
    this.pages = new EpochPages(reader, () => EPOCH_ROWS);
  }

  /** Reads sessions from `source` (undefined: the files under each root) from now on. */
  setSource(source: SessionSource | undefined): Promise<void> {
    this.source = source;
    return this.refreshAll();
  }

  /** Where writes for sessions under `root` go when a ledger store is in use. */
  storeWrites(root: string): StoreWrites | undefined {
    return this.source?.writes(root);
  }

  getTreeItem(node: SessionsNode): vscode.TreeItem {
    return treeItemFor(node);
  }

  getChildren(node?: SessionsNode): SessionsNode[] | Promise<SessionsNode[]> {
    // A long ledger's epoch whose records stayed in the worker: ask it for them.
    if (node?.kind === 'epoch' && node.epoch.count > node.epoch.records.length) return this.heldRecords(node);
    if (this.folders) return this.childrenOf(node);
    return this.ready().then(() => this.childrenOf(node));
  }

  /** The children from what has been read so far (nothing before the first read finishes). */
  childrenOf(node?: SessionsNode): SessionsNode[] {
    const folders = this.folders ?? new Map<string, Folder>();
    if (!node) {
      const all = [...folders.values()];
      // One folder: its sessions at the top level. Several: grouped by folder.
      if (all.length === 1) return [...all[0]!.sessions.values()];
      return all.map((f) => f.folder);
    }
    switch (node.kind) {
      case 'folder':
        return [...(folders.get(node.root.path)?.sessions.values() ?? [])];
      case 'session':
        if (node.entry.kind !== 'ledger') return [];
        return epochsOf(node.entry.ledger, node.entry.held).map((epoch): EpochNode => ({
          kind: 'epoch',
          parent: node,
          epoch,
        }));
      case 'epoch':
        return node.epoch.records.map((record): IterationNode => ({
          kind: 'iteration',
          parent: node,
          record,
        }));
      case 'iteration':
      case 'older':
        return [];
    }
  }

  /** An epoch of a long ledger whose records stayed in the worker: the rows shown so far or its newest. */
  private async heldRecords(node: EpochNode): Promise<SessionsNode[]> {
    return rowsOf(node, await this.pages.shown(nodeId(node), epochAt(node)));
  }

  /**
   * "Show older iterations…": fetches the page of records before the oldest shown under the
   * epoch from the worker and shows them above it. Resolves with how many were added.
   */
  async showOlder(node: OlderNode): Promise<number> {
    const added = await this.pages.older(nodeId(node.parent), epochAt(node.parent));
    if (added > 0) this.changed.fire(node.parent);
    return added;
  }

  getParent(node: SessionsNode): SessionsNode | undefined {
    switch (node.kind) {
      case 'folder':
        return undefined;
      case 'session': {
        const folders = this.folders;
        return folders && folders.size > 1 ? folders.get(node.root.path)?.folder : undefined;
      }
      case 'epoch':
        return node.parent;
      case 'iteration':
      case 'older':
        return node.parent;
    }
  }

  /** Resolves once every root has been read (at once when it already has). */
  async ready(): Promise<void> {
    await this.load();
  }

  /** Every session node read so far, across roots (for pickers and the status bar). */
  /** True once the sessions have been read (before that, a first read sees every file anyway). */
  get loaded(): boolean {
    return this.folders !== undefined;
  }

  sessionNodes(): SessionNode[] {
    return [...(this.folders?.values() ?? [])].flatMap((f) => [...f.sessions.values()]);
  }

  findSession(root: string, session: string): SessionNode | undefined {
    return this.folders?.get(root)?.sessions.get(session);
  }

  /** Forget everything and re-read every root (workspace folders changed, or on request). */
  refreshAll(): Promise<void> {
    this.generation += 1;
    this.folders = undefined;
    this.pages.clear();
    this.loading = undefined;
    const done = this.ready();
    this.changed.fire(undefined);
    return done;
  }

  /**
   * A ledger file was created, changed or deleted: re-read that session only. A changed session
   * refreshes its own node; an added or removed one refreshes its folder (or the root).
   * Resolves with the node that was refreshed, for tests.
   */
  async refreshFile(path: string): Promise<SessionsNode | 'root' | undefined> {
    // With a ledger store in use, the files are not what the tree shows.
    if (!path.endsWith('.json') || this.source !== undefined) return undefined;
    const folders = await this.load();
    const root = [...folders.values()].find((f) => isLedgerFolderOf(f.folder.root.path, dirname(path)));
    if (!root) return undefined;
    return this.queueReread(folders, root, basename(path, '.json'), path);
  }

  /** A session in a ledger store changed (another process wrote it): re-read that one session. */
  async refreshSession(rootPath: string, session: string): Promise<SessionsNode | 'root' | undefined> {
    if (this.source === undefined) return undefined;
    const folders = await this.load();
    const root = folders.get(rootPath);
    // A store that cannot be read right now leaves the node as it is (the store reads again later).
    return root ? this.queueReread(folders, root, session, undefined).catch(() => undefined) : undefined;
  }

  private queueReread(
    folders: Map<string, Folder>,
    root: Folder,
    session: string,
    path: string | undefined,
  ): Promise<SessionsNode | 'root' | undefined> {
    const key = `${root.folder.root.path}\0${session}`;
    const previous = this.rereads.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.reread(folders, root, session, path));
    const settled = next.catch(() => undefined);
    this.rereads.set(key, settled);
    void settled.then(() => {
      if (this.rereads.get(key) === settled) this.rereads.delete(key);
    });
    return next;
  }

  dispose(): void {
    this.changed.dispose();
    this.sessionsChanged.dispose();
    this.readStarted.dispose();
    this.reader.dispose();
    this.settling.forEach((timer) => clearTimeout(timer));
    this.settling.clear();
  }

  /** Announces a changed node (undefined: the whole tree) now, and once more when it settled. */
  private announce(node: SessionsNode | undefined): void {
    this.changed.fire(node);
    const key = node ?? 'root';
    clearTimeout(this.settling.get(key));
    const timer = setTimeout(() => {
      this.settling.delete(key);
      this.changed.fire(node);
    }, SETTLE_MS);
    timer.unref?.();
    this.settling.set(key, timer);
  }

  private async reread(
    folders: Map<string, Folder>,
    root: Folder,
    session: string,
    path: string | undefined,
  ): Promise<SessionsNode | 'root' | undefined> {
    const existing = root.sessions.get(session);
    // The watcher and the folder poll may both report one write: read it once.
    if (path !== undefined && existing && existing.entry.path === path && existing.mtimeMs !== 0) {
      if ((await statMtime(path)) === existing.mtimeMs) return existing;
    }
    const source = this.source;
    const timed = source
      ? await source.readOne(root.folder.root, session)
      : await this.reader.session(root.folder.root.path, session);
    if (this.folders !== folders) return undefined; // everything was re-read meanwhile
    if (existing && timed) {
      existing.entry = timed.entry;
      existing.mtimeMs = timed.mtimeMs;
      this.announce(existing);
      this.sessionsChanged.fire();
      return existing;
    }
    if (!existing && !timed) return undefined;
    if (timed) root.sessions.set(session, sessionNode(root.folder.root, timed));
    else root.sessions.delete(session);
    if (existing) this.pages.forget(`${nodeId(existing)}:`);
    sortSessions(root.sessions);
    const parent = folders.size > 1 ? root.folder : undefined;
    this.announce(parent);
    this.sessionsChanged.fire();
    return parent ?? 'root';
  }

  private load(): Promise<Map<string, Folder>> {
    if (this.folders) return Promise.resolve(this.folders);
    if (this.loading) return this.loading;
    const generation = this.generation;
    const loading = readFolders(this.roots(), this.source, this.reader).then((folders) => {
      // refreshAll ran while this read was in flight: its own read is the one to use.
      if (generation !== this.generation) return this.load();
      this.folders = folders;
      this.loading = undefined;
      this.sessionsChanged.fire();
      return folders;
    });
    this.loading = loading;
    this.readStarted.fire(loading);
    return loading;
  }

  /**
   * Re-renders one session node whose ledger did not change (a harness run's live phase, see
   * src/extension/run); a session not shown yet is read from its file.
   */
  redrawSession(root: string, session: string, ledgerPath: string): void {
    const node = this.findSession(root, session);
    if (node) this.changed.fire(node);
    else void this.refreshFile(ledgerPath);
  }
}

async function readFolders(
  roots: WorkspaceRoot[],
  source: SessionSource | undefined,
  reader: SessionsReader,
): Promise<Map<string, Folder>> {
  const folders = new Map<string, Folder>();
  for (const root of roots) {
    const sessions = new Map<string, SessionNode>();
    const read = source ? await source.readAll(root) : await reader.sessions(root.path);
    for (const timed of read) {
      sessions.set(timed.entry.session, sessionNode(root, timed));
    }
    folders.set(root.path, { folder: { kind: 'folder', root }, sessions });
  }
  return folders;
}

/**
 * An epoch's shown rows, oldest first as every epoch lists them, under a first row "Show older
 * iterations…" when older ones remain (where they will appear).
 */
function rowsOf(node: EpochNode, page: EpochPage): SessionsNode[] {
  const rows: SessionsNode[] = page.records.map((record): IterationNode => ({
    kind: 'iteration',
    parent: node,
    record,
  }));
  if (page.start > 0) rows.unshift({ kind: 'older', parent: node, hidden: page.start });
  return rows;
}

function epochAt(node: EpochNode): EpochAt {
  return { root: node.parent.root.path, entry: node.parent.entry, epoch: node.epoch.n };
}

function sessionNode(root: WorkspaceRoot, timed: TimedEntry): SessionNode {
  return { kind: 'session', root, entry: timed.entry, mtimeMs: timed.mtimeMs };
}

/** True when `dir` is `<root>/.loop/ledgers` or `<root>/.claude/.runtime/work-loop`. */
function isLedgerFolderOf(root: string, dir: string): boolean {
  const parent = dirname(dir);
  if (basename(dir) === 'ledgers' && basename(parent) === '.loop') return dirname(parent) === root;
  const runtime = dirname(parent);
  return basename(dir) === 'work-loop' && basename(parent) === '.runtime' && basename(runtime) === '.claude'
    ? dirname(runtime) === root
    : false;
}

async function statMtime(path: string): Promise<number> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return 0;
  }
}

/** Keeps a folder's sessions in id order after an insertion (Map iteration order is insertion order). */
function sortSessions(sessions: Map<string, SessionNode>): void {
  const sorted = [...sessions.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  sessions.clear();
  for (const [id, node] of sorted) sessions.set(id, node);
}
