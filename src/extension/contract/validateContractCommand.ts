import * as vscode from 'vscode';
import type { Command } from '../commandManager';
import type { ContractDiagnostics } from './contractDiagnostics';
import { contractLabel, isContractPath } from './contractDocuments';

/** What the command found; returned so tests can check it without reading the UI. */
export interface ValidateContractResult {
  readonly file: string | undefined;
  readonly valid: boolean;
  readonly findings: number;
}

/**
 * "Loop Ledger: Validate Contract" (also the "Validate" CodeLens): checks the given contract, or
 * the active editor's, at once instead of after the typing pause, and says what it found.
 */
export class ValidateContractCommand implements Command {
  readonly id = 'loopLedger.validateContract';

  constructor(private readonly diagnostics: ContractDiagnostics) {}

  async execute(target?: unknown): Promise<ValidateContractResult> {
    const uri = target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri;
    const document =
      uri && isContractPath(uri.path) ? await vscode.workspace.openTextDocument(uri) : undefined;
    const check = document && (await this.diagnostics.validateNow(document));
    if (!uri || !check) {
      void vscode.window.showWarningMessage(
        'Loop Ledger: open a contract first (.loop/contracts/*.json or *.loop-contract.json).',
      );
      return { file: undefined, valid: false, findings: 0 };
    }
    const label = contractLabel(uri);
    if (!check.parsed) {
      void vscode.window.showErrorMessage(`Loop Ledger: ${label} is not valid JSON; fix the syntax first.`);
      return { file: label, valid: false, findings: 0 };
    }
    const count = check.findings.length;
    if (count === 0) {
      const dimensions = check.dimensions ?? 0;
      void vscode.window.showInformationMessage(
        `Loop Ledger: ${label} is a valid contract (${dimensions} rubric dimension${dimensions === 1 ? '' : 's'}).`,
      );
    } else {
      void vscode.window
        .showWarningMessage(
          `Loop Ledger: ${label} has ${count} finding${count === 1 ? '' : 's'}; a loop cannot open with it.`,
          'Show Problems',
        )
        .then((choice) => {
          if (choice) void vscode.commands.executeCommand('workbench.actions.view.problems');
        });
    }
    return { file: label, valid: count === 0, findings: count };
  }
}
