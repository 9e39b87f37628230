import { lstat } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { Command } from '../commandManager';
import { BACK, type PrompterSlot } from '../input';
import { contractNameProblem } from './contractName';
import { engineeringSkeleton } from '../engineering/engineeringSkeleton';
import { blankContract } from './contractSkeleton';

/** What the command did; returned so tests can check it without reading the UI. */
export interface NewContractResult {
  readonly created: string | undefined;
  readonly reason?: 'no-folder' | 'untrusted' | 'cancelled';
}

/** The step ids scripted answers name. */
export const NEW_CONTRACT_NAME_STEP = 'newContract.name';
export const NEW_CONTRACT_KIND_STEP = 'newContract.kind';

/** The two contract kinds: work-loop JSON and loop-engineering `.loop.md`. */
const KINDS = () =>
  [
    {
      label: vscode.l10n.t('Work-loop contract (JSON)'),
      description: vscode.l10n.t('rubric, evidence commands, iteration limit'),
      value: 'json',
    },
    {
      label: vscode.l10n.t('Loop-engineering contract (.loop.md)'),
      description: vscode.l10n.t('mode, topology, finite caps, verifier, permission boundary'),
      value: 'loop.md',
    },
  ] as const;

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
        vscode.l10n.t('Loop Ledger: open a folder first; contracts live in its .loop/contracts.'),
      );
      return { created: undefined, reason: 'no-folder' };
    }
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Loop Ledger only reads in an untrusted workspace; trust this folder to create a contract.',
        ),
      );
      return { created: undefined, reason: 'untrusted' };
    }
    const kind = await this.prompter.current.pickOne({
      id: NEW_CONTRACT_KIND_STEP,
      title: vscode.l10n.t('Loop Ledger: New Contract'),
      placeholder: vscode.l10n.t('Which kind of contract?'),
      items: KINDS().map((k) => ({ label: k.label, description: k.description, value: k.value })),
    });
    if (kind === undefined || kind === BACK) return { created: undefined, reason: 'cancelled' };
    const folder = vscode.Uri.joinPath(workspace.uri, ...CONTRACTS);
    const fileFor = (name: string) => vscode.Uri.joinPath(folder, `${name}.${kind}`);
    // Anything at that path (a file, a folder, a dangling link) takes the name, as existsSync did
    // minus following a link: an lstat answers for the entry itself.
    const taken = (name: string) =>
      lstat(fileFor(name).fsPath).then(
        () => true,
        () => false,
      );
    const answer = await this.prompter.current.inputText({
      id: NEW_CONTRACT_NAME_STEP,
      title: vscode.l10n.t('Loop Ledger: New Contract'),
      prompt: vscode.l10n.t('Name of the contract, created as .loop/contracts/<name>.{0}', kind),
      placeholder: vscode.l10n.t('fix-failing-tests'),
      validate: (text) => contractNameProblem(text, taken),
    });
    if (answer === undefined || answer === BACK) return { created: undefined, reason: 'cancelled' };

    const file = fileFor(answer);
    await vscode.workspace.fs.createDirectory(folder);
    const text =
      kind === 'json' ? `${JSON.stringify(blankContract(), null, 2)}\n` : engineeringSkeleton(answer);
    await vscode.workspace.fs.writeFile(file, Buffer.from(text));
    await vscode.window.showTextDocument(file);
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Loop Ledger: created {0}; Problems lists each blank field until it is filled in.',
        vscode.workspace.asRelativePath(file, false),
      ),
    );
    return { created: file.fsPath };
  }
}
