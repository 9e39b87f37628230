import * as vscode from 'vscode';
import { isEngineeringJsonText } from '../../app/engineering/validate';
import { OPEN_ENGINEERING_LOOP_COMMAND } from '../engineering/openEngineeringLoop';
import { OPEN_LOOP_COMMAND, VALIDATE_CONTRACT_COMMAND } from './contractCommandIds';

/** "Open loop with this contract" and "Validate" above a contract's first line. */
export class ContractCodeLens implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    // A loop-engineering contract opens with `open --engineering`; its kind decides, as in the CLI.
    const engineering = isEngineeringJsonText(document.getText());
    return [
      new vscode.CodeLens(top, {
        title: vscode.l10n.t('Open loop with this contract'),
        tooltip: vscode.l10n.t('Loop Ledger: open a new loop session bound to this contract'),
        command: engineering ? OPEN_ENGINEERING_LOOP_COMMAND : OPEN_LOOP_COMMAND,
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
