import * as vscode from 'vscode';
import { OPEN_LOOP_COMMAND, VALIDATE_CONTRACT_COMMAND } from './contractCommandIds';

/** "Open loop with this contract" and "Validate" above a contract's first line. */
export class ContractCodeLens implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, {
        title: vscode.l10n.t('Open loop with this contract'),
        tooltip: vscode.l10n.t('Loop Ledger: open a new loop session bound to this contract'),
        command: OPEN_LOOP_COMMAND,
        arguments: [document.uri],
      }),
      new vscode.CodeLens(top, {
        title: vscode.l10n.t('Validate'),
        tooltip: vscode.l10n.t('Loop Ledger: check this contract now and list every finding'),
        command: VALIDATE_CONTRACT_COMMAND,
        arguments: [document.uri],
      }),
    ];
  }
}
