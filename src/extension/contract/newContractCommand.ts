import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { Command } from '../commandManager';
import { BACK, type PrompterSlot } from '../input';
import { contractNameProblem } from './contractName';
import { blankContract } from './contractSkeleton';

/** What the command did; returned so tests can check it without reading the UI. */
export interface NewContractResult {
  readonly created: string | undefined;
  readonly reason?: 'no-folder' | 'untrusted' | 'cancelled';
}

/** The step id scripted answers name. */
export const NEW_CONTRACT_NAME_STEP = 'newContract.name';

const CONTRACTS = ['.loop', 'contracts'] as const;

/**
 * "Loop Ledger: New Contract": asks for a name, writes `.loop/contracts/<name>.json` with every
 * field blank and opens it, so the diagnostics list what is left to fill in. It writes a file,
 * so it refuses in an untrusted workspace.
 */
export class NewContractCommand implements Command {
  readonly id = 'loopLedger.newContract';

  constructor(private readonly prompter: PrompterSlot) {}

  async execute(): Promise<NewContractResult> {
    const workspace = vscode.workspace.workspaceFolders?.[0];
    if (!workspace) {
      void vscode.window.showWarningMessage(
        'Loop Ledger: open a folder first; contracts live in its .loop/contracts.',
      );
      return { created: undefined, reason: 'no-folder' };
    }
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(
        'Loop Ledger only reads in an untrusted workspace; trust this folder to create a contract.',
      );
      return { created: undefined, reason: 'untrusted' };
    }
    const folder = vscode.Uri.joinPath(workspace.uri, ...CONTRACTS);
    const fileFor = (name: string) => vscode.Uri.joinPath(folder, `${name}.json`);
    const taken = (name: string) => existsSync(fileFor(name).fsPath);
    const answer = await this.prompter.current.inputText({
      id: NEW_CONTRACT_NAME_STEP,
      title: 'Loop Ledger: New Contract',
      prompt: 'Name of the contract, created as .loop/contracts/<name>.json',
      placeholder: 'fix-failing-tests',
      validate: (text) => contractNameProblem(text, taken),
    });
    if (answer === undefined || answer === BACK) return { created: undefined, reason: 'cancelled' };

    const file = fileFor(answer);
    await vscode.workspace.fs.createDirectory(folder);
    await vscode.workspace.fs.writeFile(file, Buffer.from(`${JSON.stringify(blankContract(), null, 2)}\n`));
    await vscode.window.showTextDocument(file);
    void vscode.window.showInformationMessage(
      `Loop Ledger: created ${vscode.workspace.asRelativePath(file, false)}; Problems lists each blank field until it is filled in.`,
    );
    return { created: file.fsPath };
  }
}
