import * as vscode from 'vscode';
import { OPEN_ENGINEERING_LOOP_COMMAND } from './openEngineeringLoop';

/** "Open loop with this contract" above a `.loop.md` contract's first line. */
export class EngineeringCodeLens implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: vscode.l10n.t('Open loop with this contract'),
        tooltip: vscode.l10n.t(
          'Loop Ledger: open a loop bounded by this loop-engineering contract (validated with the strict findings)',
        ),
        command: OPEN_ENGINEERING_LOOP_COMMAND,
        arguments: [document.uri],
      }),
    ];
  }
}
