import * as vscode from 'vscode';
import type { Command } from '../commandManager';
import type { CommandDeps, CommandReport } from './deps';
import { CANCELLED, nothingToDo, reportForeignArgument } from './report';
import { chooseSession } from './target';

/**
 * Opens a session's ledger file (read-only preview; edits belong to the CLI and the commands)
 * and reveals it in the Explorer. Works on unreadable ledgers too: that is when you need it.
 */
export class RevealLedgerFileCommand implements Command {
  readonly id = 'loopLedger.revealLedgerFile';

  constructor(private readonly deps: CommandDeps) {}

  async execute(argument?: unknown): Promise<CommandReport<{ path: string }>> {
    const { deps } = this;
    const chosen = await chooseSession(deps.sessions, deps.prompter.current, argument, {
      id: 'reveal.session',
      title: vscode.l10n.t('Loop Ledger: Reveal Ledger File'),
      accept: () => true,
      none: vscode.l10n.t('there are no sessions in this workspace yet.'),
    });
    if (chosen === 'cancelled') return CANCELLED;
    if ('refused' in chosen)
      return reportForeignArgument(deps, vscode.l10n.t('Reveal Ledger File'), chosen.refused);
    if ('none' in chosen) return nothingToDo(chosen.none);
    const uri = vscode.Uri.file(chosen.path);
    await vscode.window.showTextDocument(uri, { preview: true, preserveFocus: false });
    await vscode.commands.executeCommand('revealInExplorer', uri);
    return { status: 'done', message: `${chosen.session}: ${chosen.path}`, payload: { path: chosen.path } };
  }
}
