import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import * as vscode from 'vscode';
import type { WorkspaceRoot } from '../workspace/roots';
import { epochsOf } from './epochs';
import type { EpochNode, FolderNode, IterationNode, SessionNode, SessionsNode } from './nodes';
import { readSession, readSessions, type SessionEntry } from './sessionEntry';
import { treeItemFor } from './treeItems';

/**
 * The Sessions view: (folder →) session → epoch → iteration. Sessions are read through the
 * store once per root and then kept; a ledger file change re-reads that one session and
 * refreshes only its node (see `refreshFile`).
 */
export class SessionsTreeProvider implements vscode.TreeDataProvider<SessionsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SessionsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly sessionsChanged = new vscode.EventEmitter<void>();
  /** Fires after any session was added, changed or removed (the status bar listens). */
  readonly onDidChangeSessions = this.sessionsChanged.event;

  /** root path → folder node and its sessions by id; filled on first use. */
  private folders: Map<string, { folder: FolderNode; sessions: Map<string, SessionNode> }> | undefined;

  constructor(private readonly roots: () => WorkspaceRoot[]) {}

  getTreeItem(node: SessionsNode): vscode.TreeItem {
    return treeItemFor(node);
  }

  getChildren(node?: SessionsNode): SessionsNode[] {
    if (!node) {
      const folders = [...this.loaded().values()];
      // One folder: its sessions at the top level. Several: grouped by folder.
      if (folders.length === 1) return [...folders[0]!.sessions.values()];
      return folders.map((f) => f.folder);
    }
    switch (node.kind) {
      case 'folder':
        return [...(this.loaded().get(node.root.path)?.sessions.values() ?? [])];
      case 'session':
        if (node.entry.kind !== 'ledger') return [];
        return epochsOf(node.entry.ledger).map((epoch): EpochNode => ({
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
        return [];
    }
  }

  getParent(node: SessionsNode): SessionsNode | undefined {
    switch (node.kind) {
      case 'folder':
        return undefined;
      case 'session':
        return this.loaded().size > 1 ? this.loaded().get(node.root.path)?.folder : undefined;
      case 'epoch':
        return node.parent;
      case 'iteration':
        return node.parent;
    }
  }

  /** Every session node, across roots (for pickers and the status bar). */
  sessionNodes(): SessionNode[] {
    return [...this.loaded().values()].flatMap((f) => [...f.sessions.values()]);
  }

  findSession(root: string, session: string): SessionNode | undefined {
    return this.loaded().get(root)?.sessions.get(session);
  }

  /** Forget everything and re-read every root (workspace folders changed, or on request). */
  refreshAll(): void {
    this.folders = undefined;
    this.changed.fire(undefined);
    this.sessionsChanged.fire();
  }

  /**
   * A ledger file was created, changed or deleted: re-read that session only. A changed session
   * refreshes its own node; an added or removed one refreshes its folder (or the root).
   * Returns the node that was refreshed, for tests.
   */
  refreshFile(path: string): SessionsNode | 'root' | undefined {
    if (!path.endsWith('.json')) return undefined;
    const folders = this.loaded();
    const root = [...folders.values()].find((f) => isLedgerFolderOf(f.folder.root.path, dirname(path)));
    if (!root) return undefined;
    const session = basename(path, '.json');
    const existing = root.sessions.get(session);
    // The watcher and the folder poll may both report one write: read it once.
    if (
      existing &&
      existing.entry.path === path &&
      existing.mtimeMs !== 0 &&
      statMtime(path) === existing.mtimeMs
    ) {
      return existing;
    }
    const entry = readSession(root.folder.root.path, session);
    if (existing && entry) {
      existing.entry = entry;
      existing.mtimeMs = mtimeOf(entry);
      this.changed.fire(existing);
      this.sessionsChanged.fire();
      return existing;
    }
    if (!existing && !entry) return undefined;
    if (entry) root.sessions.set(session, this.sessionNode(root.folder.root, entry));
    else root.sessions.delete(session);
    sortSessions(root.sessions);
    const parent = folders.size > 1 ? root.folder : undefined;
    this.changed.fire(parent);
    this.sessionsChanged.fire();
    return parent ?? 'root';
  }

  /**
   * Re-renders one session node whose ledger did not change (a harness run's live phase, see
   * src/extension/runs); a session not shown yet is read from its file.
   */
  redrawSession(root: string, session: string, ledgerPath: string): void {
    const node = this.findSession(root, session);
    if (node) this.changed.fire(node);
    else this.refreshFile(ledgerPath);
  }

  dispose(): void {
    this.changed.dispose();
    this.sessionsChanged.dispose();
  }

  private loaded(): Map<string, { folder: FolderNode; sessions: Map<string, SessionNode> }> {
    if (this.folders) return this.folders;
    const folders = new Map<string, { folder: FolderNode; sessions: Map<string, SessionNode> }>();
    for (const root of this.roots()) {
      const sessions = new Map<string, SessionNode>();
      for (const entry of readSessions(root.path)) sessions.set(entry.session, this.sessionNode(root, entry));
      folders.set(root.path, { folder: { kind: 'folder', root }, sessions });
    }
    this.folders = folders;
    return folders;
  }

  private sessionNode(root: WorkspaceRoot, entry: SessionEntry): SessionNode {
    return { kind: 'session', root, entry, mtimeMs: mtimeOf(entry) };
  }
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

function mtimeOf(entry: SessionEntry): number {
  return statMtime(entry.path);
}

function statMtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
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
