import * as vscode from 'vscode';
import type { SessionsNode } from '../sessions/nodes';
import type { SessionsTreeProvider } from '../sessions/treeProvider';

export const SESSIONS_VIEW_ID = 'loopLedger.sessions';

/**
 * The Sessions view over its provider. A TreeView (not just a registered provider) so the
 * status bar can follow the selection and commands can reveal a session. When the provider
 * lists nothing, VS Code shows the view's welcome content (package.json `viewsWelcome`).
 */
export function createSessionsView(provider: SessionsTreeProvider): vscode.TreeView<SessionsNode> {
  return vscode.window.createTreeView(SESSIONS_VIEW_ID, {
    treeDataProvider: provider,
    showCollapseAll: true,
  });
}
