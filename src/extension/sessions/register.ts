import * as vscode from 'vscode';
import { createSessionsView, showReadingState } from '../views/sessionsView';
import { workspaceRoots } from '../workspace/roots';
import { pollLedgerFolders, type LedgerPoller } from './ledgerPoller';
import { watchLedgers } from './ledgerWatcher';
import type { SessionsNode } from './nodes';
import { SessionsReader } from './sessionsReader';
import { SessionsTreeProvider } from './treeProvider';

export interface SessionsServices {
  readonly provider: SessionsTreeProvider;
  readonly view: vscode.TreeView<SessionsNode>;
  readonly poller: LedgerPoller;
}

/**
 * The Sessions view, its provider, the ledger watcher (one RelativePattern per workspace folder)
 * and the folder poll (only while the view is visible and ledgers exist); every registration
 * into the context. Nothing is read until the view or a command asks.
 */
export function registerSessions(context: vscode.ExtensionContext): SessionsServices {
  // Ledgers are parsed in the ledger worker thread (shared with the overview), never on the host's.
  const worker = vscode.Uri.joinPath(context.extensionUri, 'dist', 'overviewWorker.js').fsPath;
  const provider = new SessionsTreeProvider(workspaceRoots, new SessionsReader(worker));
  const view = createSessionsView(provider);
  const readingState = showReadingState(provider);
  const poller = pollLedgerFolders(provider, workspaceRoots);
  const onLedgerChanged = (path: string): void => {
    void provider.refreshFile(path);
    void poller.update(view.visible); // a first ledger folder may have appeared
  };
  let watcher = watchLedgers(vscode.workspace.workspaceFolders ?? [], onLedgerChanged);
  context.subscriptions.push(
    provider,
    view,
    readingState,
    poller,
    { dispose: () => watcher.dispose() },
    view.onDidChangeVisibility((event) => void poller.update(event.visible)),
    // Sessions were (re)read — a refresh, a first ledger folder: the poll re-decides, so it does
    // not wait for a watcher event that a busy or remote host may never deliver.
    provider.onDidChangeSessions(() => void poller.update(view.visible)),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      watcher.dispose();
      watcher = watchLedgers(vscode.workspace.workspaceFolders ?? [], onLedgerChanged);
      void provider.refreshAll();
      void poller.update(view.visible);
    }),
  );
  if (view.visible) void poller.update(true);
  return { provider, view, poller };
}
