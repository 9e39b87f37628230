import * as vscode from 'vscode';
import type { SessionEntry } from '../sessions/sessionEntry';
import type { CommandReport } from './deps';
import { SessionCommand, type PickFirstAny } from './sessionCommand';

/**
 * Opens a session's ledger file (read-only preview; edits belong to the CLI and the commands)
 * and reveals it in the Explorer. Works on unreadable ledgers too: that is when you need it.
 */
export class RevealLedgerFileCommand extends SessionCommand<CommandReport<{ path: string }>, PickFirstAny> {
  readonly id = 'loopLedger.revealLedgerFile';
  protected readonly needsTrust = false;
  protected readonly target: PickFirstAny = {
    ask: 'first-any',
    id: 'reveal.session',
    title: () => vscode.l10n.t('Loop Ledger: Reveal Ledger File'),
    accept: () => true,
    none: () => vscode.l10n.t('there are no sessions in this workspace yet.'),
  };

  protected title(): string {
    return vscode.l10n.t('Reveal Ledger File');
  }

  protected async run(chosen: SessionEntry): Promise<CommandReport<{ path: string }>> {
    const uri = vscode.Uri.file(chosen.path);
    await vscode.window.showTextDocument(uri, { preview: true, preserveFocus: false });
    await vscode.commands.executeCommand('revealInExplorer', uri);
    return { status: 'done', message: `${chosen.session}: ${chosen.path}`, payload: { path: chosen.path } };
  }
}
