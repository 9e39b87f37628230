import * as vscode from 'vscode';
import { sessionOf } from '../sessions/nodes';
import type { SessionsServices } from '../sessions/register';
import { ActiveSession } from './activeSession';
import { statusBarView } from './statusBarText';

/**
 * `$(sync) fix-parser 3/10 · continue · pass 34.58` for an open session, `$(pass) fix-parser
 * closed: complete · 5 iterations · pass 80` for a closed one; click → Show Status for it.
 */
export function registerStatusBar(
  context: vscode.ExtensionContext,
  sessions: SessionsServices,
): vscode.StatusBarItem {
  const item = vscode.window.createStatusBarItem(
    'loopLedger.activeSession',
    vscode.StatusBarAlignment.Left,
    50,
  );
  item.name = vscode.l10n.t('Loop Ledger: active session');
  const active = new ActiveSession(sessions.provider);

  const update = (): void => {
    const node = active.current();
    if (!node || node.entry.kind !== 'ledger') {
      item.hide();
      return;
    }
    const { entry } = node;
    const view = statusBarView(entry);
    item.text = view.text;
    item.tooltip = view.tooltip;
    item.command = {
      title: vscode.l10n.t('Show Status'),
      command: 'loopLedger.showStatus',
      arguments: [{ root: entry.root, session: entry.session }],
    };
    item.show();
  };

  context.subscriptions.push(
    item,
    sessions.provider.onDidChangeSessions(update),
    sessions.view.onDidChangeSelection((event) => {
      const first = event.selection[0];
      active.select(first ? sessionOf(first) : undefined);
      update();
    }),
  );
  update();
  return item;
}
