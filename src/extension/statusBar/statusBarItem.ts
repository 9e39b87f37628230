import * as vscode from 'vscode';
import { currentEpochView } from '../sessions/epochs';
import { progressText, stateText } from '../sessions/labels';
import { sessionOf } from '../sessions/nodes';
import type { SessionsServices } from '../sessions/register';
import { budgetWords, tightestBudget } from '../../shared/budget-words';
import { ActiveSession } from './activeSession';

/** `$(sync) fix-parser 3/10 · continue · pass`; click → Show Status for that session. */
export function registerStatusBar(
  context: vscode.ExtensionContext,
  sessions: SessionsServices,
): vscode.StatusBarItem {
  const item = vscode.window.createStatusBarItem(
    'loopLedger.activeSession',
    vscode.StatusBarAlignment.Left,
    50,
  );
  item.name = 'Loop Ledger: active session';
  const active = new ActiveSession(sessions.provider);

  const update = (): void => {
    const node = active.current();
    if (!node || node.entry.kind !== 'ledger') {
      item.hide();
      return;
    }
    const { entry } = node;
    const epoch = currentEpochView(entry.ledger);
    const parts = [
      progressText(epoch),
      entry.status.last_outcome ?? 'no iterations',
      entry.status.rubric_verdict ?? 'not scored',
    ];
    // A loop-engineering ledger also shows its budget: the tightest cap here, every cap in the tooltip.
    const budget = budgetWords(entry.status.budget).replace(/^; budget /, '');
    const tightest = tightestBudget(entry.status.budget);
    if (tightest) parts.push(tightest);
    item.text = `$(sync) ${entry.session} ${parts.join(' · ')}`;
    item.tooltip = `Loop Ledger — ${entry.session}: ${stateText(epoch.state, entry.ledger.final_outcome ?? null)}, ${progressText(epoch)} iterations this epoch, last outcome ${parts[1]}, rubric ${parts[2]}${budget ? `, budget ${budget}` : ''}. Click for its status.`;
    item.command = {
      title: 'Show Status',
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
