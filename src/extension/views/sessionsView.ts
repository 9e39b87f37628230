import * as vscode from 'vscode';
import type { SessionsNode } from '../sessions/nodes';
import type { SessionsTreeProvider } from '../sessions/treeProvider';

export const SESSIONS_VIEW_ID = 'loopLedger.sessions';
/** True once a read of every root finished and found no session: the welcome text's condition. */
const NO_SESSIONS_CONTEXT = 'loopLedger.noSessions';

/**
 * The Sessions view over its provider. A TreeView (not just a registered provider) so the
 * status bar can follow the selection and commands can reveal a session. VS Code shows the view's
 * welcome content (package.json `viewsWelcome`) whenever the tree has no rows, also while the
 * first read is still running; so the welcome text waits for a context key set only once a read
 * finished with no session, and the view shows its progress bar while a read runs.
 */
export function createSessionsView(provider: SessionsTreeProvider): vscode.TreeView<SessionsNode> {
  return vscode.window.createTreeView(SESSIONS_VIEW_ID, {
    treeDataProvider: provider,
    showCollapseAll: true,
  });
}

/** The view's progress bar while a read runs, and the welcome text's context key after it. */
export function showReadingState(provider: SessionsTreeProvider): vscode.Disposable {
  let noSessions = false;
  return vscode.Disposable.from(
    provider.onDidStartReading((reading) => {
      void vscode.window.withProgress({ location: { viewId: SESSIONS_VIEW_ID } }, () =>
        reading.catch(() => undefined),
      );
    }),
    provider.onDidChangeSessions(() => {
      const none = provider.loaded && provider.sessionNodes().length === 0;
      if (none === noSessions) return;
      noSessions = none;
      void vscode.commands.executeCommand('setContext', NO_SESSIONS_CONTEXT, none);
    }),
  );
}
