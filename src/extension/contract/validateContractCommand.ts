import * as vscode from 'vscode';
import { checkEngineeringJsonText } from '../../app/engineering/validate';
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
        vscode.l10n.t('Loop Ledger: open a contract first (.loop/contracts/*.json or *.loop-contract.json).'),
      );
      return { file: undefined, valid: false, findings: 0 };
    }
    const label = contractLabel(uri);
    if (!check.parsed) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Loop Ledger: {0} is not valid JSON; fix the syntax first.', label),
      );
      return { file: label, valid: false, findings: 0 };
    }
    if (check.kind === 'loop-engineering') return reportEngineering(label, document.getText());
    const count = check.findings.length;
    if (count === 0) {
      const dimensions = check.dimensions ?? 0;
      void vscode.window.showInformationMessage(
        dimensions === 1
          ? vscode.l10n.t('Loop Ledger: {0} is a valid contract (1 rubric dimension).', label)
          : vscode.l10n.t('Loop Ledger: {0} is a valid contract ({1} rubric dimensions).', label, dimensions),
      );
    } else {
      void vscode.window
        .showWarningMessage(
          count === 1
            ? vscode.l10n.t('Loop Ledger: {0} has 1 finding; a loop cannot open with it.', label)
            : vscode.l10n.t('Loop Ledger: {0} has {1} findings; a loop cannot open with it.', label, count),
          vscode.l10n.t('Show Problems'),
        )
        .then((choice) => {
          if (choice) void vscode.commands.executeCommand('workbench.actions.view.problems');
        });
    }
    return { file: label, valid: count === 0, findings: count };
  }
}

/** A JSON contract of the loop-engineering kind: its findings under --strict, as `open --engineering` judges it. */
function reportEngineering(label: string, text: string): ValidateContractResult {
  const count = checkEngineeringJsonText(text, true)?.findings.length ?? 0;
  if (count === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Loop Ledger: {0} is a valid loop-engineering contract.', label),
    );
  } else {
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t(
          'Loop Ledger: {0} is a loop-engineering contract with {1} finding(s) under --strict; a loop cannot open with it.',
          label,
          count,
        ),
        vscode.l10n.t('Show Problems'),
      )
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.actions.view.problems');
      });
  }
  return { file: label, valid: count === 0, findings: count };
}
