// Shows which ledger store the window uses and whether it is connected: a status bar item while
// a store is set, and the Sessions view's message while it is not connected or not used.
import * as vscode from 'vscode';
import type { LinkState } from './storeLink';

export class StoreStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'loopLedger.store',
    vscode.StatusBarAlignment.Left,
    49,
  );
  /** What the last update said, for tests and the output channel. */
  current: { state: LinkState['state'] | 'off' | 'files'; text: string } = { state: 'files', text: '' };

  constructor(private readonly view: vscode.TreeView<unknown>) {
    this.item.name = vscode.l10n.t('Loop Ledger: ledger store');
    this.item.command = 'loopLedger.refreshSessions';
  }

  files(): void {
    this.item.hide();
    this.view.message = undefined;
    this.current = { state: 'files', text: '' };
  }

  off(reason: string): void {
    this.item.text = vscode.l10n.t('$(circle-slash) Ledger store not used');
    this.item.tooltip = reason;
    this.item.show();
    this.view.message = reason;
    this.current = { state: 'off', text: reason };
  }

  show(state: LinkState): void {
    const where = `${state.store} · ${state.projects.join(', ')}`;
    switch (state.state) {
      case 'connected':
        this.item.text = vscode.l10n.t('$(database) Ledger store: connected');
        this.view.message = undefined;
        break;
      case 'connecting':
        this.item.text = vscode.l10n.t('$(sync~spin) Ledger store: connecting');
        this.view.message = vscode.l10n.t('Connecting to the ledger store {0}…', where);
        break;
      default: {
        const retry =
          state.retryInMs !== undefined
            ? vscode.l10n.t('reconnecting in {0} s', Math.max(1, Math.round(state.retryInMs / 1000)))
            : vscode.l10n.t('reconnecting');
        this.item.text = vscode.l10n.t('$(debug-disconnect) Ledger store: disconnected');
        this.view.message = vscode.l10n.t(
          'Ledger store {0} disconnected ({1}); {2}. The sessions shown may be out of date.',
          where,
          state.reason ?? vscode.l10n.t('no reason given'),
          retry,
        );
      }
    }
    this.item.tooltip = vscode.l10n.t(
      'Loop Ledger reads and writes sessions in PostgreSQL: {0}{1}',
      where,
      state.reason ? ` — ${state.reason}` : '',
    );
    this.item.show();
    this.current = { state: state.state, text: this.view.message ?? this.item.text };
  }

  dispose(): void {
    this.item.dispose();
  }
}
