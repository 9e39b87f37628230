import * as vscode from 'vscode';
import { createSessionsView } from '../views/sessionsView';
import { workspaceRoots } from '../workspace/roots';
import { pollLedgerFolders } from './ledgerPoller';
import { watchLedgers } from './ledgerWatcher';
import type { SessionsNode } from './nodes';
import { SessionsTreeProvider } from './treeProvider';

export interface SessionsServices {
  readonly provider: SessionsTreeProvider;
  readonly view: vscode.TreeView<SessionsNode>;
}

/** The Sessions view, its provider and the ledger watcher; every registration into the context. */
export function registerSessions(context: vscode.ExtensionContext): SessionsServices {
  const provider = new SessionsTreeProvider(workspaceRoots);
  const view = createSessionsView(provider);
  context.subscriptions.push(
    provider,
    view,
    watchLedgers((path) => provider.refreshFile(path)),
    pollLedgerFolders(provider, workspaceRoots),
    vscode.workspace.onDidChangeWorkspaceFolders(() => provider.refreshAll()),
  );
  return { provider, view };
}
