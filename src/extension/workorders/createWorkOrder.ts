// "Create a Work Order": asks for the task folder and a title, writes the task's next
// `work-orders/wo-NN-<slug>.md` and opens it. The Work Orders view's welcome button runs it.
import * as l10n from '@vscode/l10n';
import { isAbsolute, join, relative } from 'node:path';
import * as vscode from 'vscode';
import { createWorkOrder } from '../../app/workorders/new-work-order';
import type { Command } from '../commandManager';
import { BACK, type PrompterSlot } from '../input';
import type { TrustGate } from '../workspace/trust';
import { refuseUntrusted } from './commands';

export class CreateWorkOrderCommand implements Command {
  readonly id = 'loopLedger.wo.create';

  constructor(
    private readonly prompter: PrompterSlot,
    private readonly trust: TrustGate,
  ) {}

  async execute(): Promise<string | undefined> {
    // It writes a file: an untrusted workspace's Work Orders view stays read-only, as for Halt.
    if (refuseUntrusted({ trust: this.trust }, l10n.t('Create a Work Order'))) return undefined;
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) {
      void vscode.window.showWarningMessage(l10n.t('Loop Ledger: open a folder to create a work order in.'));
      return undefined;
    }
    const title = l10n.t('Loop Ledger: Create a Work Order');
    const task = await this.prompter.current.inputText({
      id: 'wo.create.task',
      title,
      prompt: l10n.t(
        'The task folder, relative to the workspace (its work orders go in work-orders/ inside it)',
      ),
      value: 'tasks/first-task',
      validate: (text) => {
        const t = text.trim();
        if (t === '') return l10n.t('Name a folder.');
        if (isAbsolute(t) || relative(folder.uri.fsPath, join(folder.uri.fsPath, t)).startsWith('..'))
          return l10n.t('The folder must be inside the workspace.');
        return undefined;
      },
    });
    if (task === undefined || task === BACK) return undefined;
    const name = await this.prompter.current.inputText({
      id: 'wo.create.title',
      title,
      prompt: l10n.t('What the work order does, in a few words'),
      validate: (text) => (text.trim() === '' ? l10n.t('Give it a title.') : undefined),
    });
    if (name === undefined || name === BACK) return undefined;
    try {
      const path = createWorkOrder(join(folder.uri.fsPath, task.trim()), name);
      await vscode.window.showTextDocument(vscode.Uri.file(path));
      return path;
    } catch (error) {
      void vscode.window.showErrorMessage(
        l10n.t('Loop Ledger: could not create the work order: {0}', (error as Error).message),
      );
      return undefined;
    }
  }
}
