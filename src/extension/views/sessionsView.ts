import * as vscode from 'vscode';

export const SESSIONS_VIEW_ID = 'loopLedger.sessions';

/**
 * The Sessions view's data provider. It lists nothing yet, so the view shows its welcome
 * content (package.json `viewsWelcome`); the sessions → epochs → iterations tree replaces it.
 */
export class SessionsTreeProvider implements vscode.TreeDataProvider<never> {
  getTreeItem(element: never): vscode.TreeItem {
    return element;
  }

  getChildren(): never[] {
    return [];
  }
}
