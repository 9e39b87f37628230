import * as vscode from 'vscode';
import type { CommandManager } from '../commandManager';
import type { PrompterSlot } from '../input';
import { ContractCheckRunner } from './contractCheckRunner';
import { ContractCodeLens } from './contractCodeLens';
import { ContractDiagnostics } from './contractDiagnostics';
import { CONTRACT_SELECTOR } from './contractDocuments';
import { ContractQuickFixes } from './contractQuickFixes';
import { NewContractCommand } from './newContractCommand';
import { ValidateContractCommand } from './validateContractCommand';

/** The contract editor: semantic diagnostics, quick fixes, CodeLens and its two commands. */
export function registerContractEditor(
  context: vscode.ExtensionContext,
  commands: CommandManager,
  prompter: PrompterSlot,
): void {
  // Large contracts are checked in a worker thread, bundled beside the extension.
  const worker = vscode.Uri.joinPath(context.extensionUri, 'dist', 'contractCheckWorker.js').fsPath;
  const diagnostics = new ContractDiagnostics(new ContractCheckRunner(worker));
  context.subscriptions.push(
    diagnostics,
    vscode.languages.registerCodeActionsProvider(CONTRACT_SELECTOR, new ContractQuickFixes(diagnostics), {
      providedCodeActionKinds: ContractQuickFixes.providedCodeActionKinds,
    }),
    vscode.languages.registerCodeLensProvider(CONTRACT_SELECTOR, new ContractCodeLens()),
  );
  commands.register(new ValidateContractCommand(diagnostics));
  commands.register(new NewContractCommand(prompter));
}
