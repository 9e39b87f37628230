// Run Queue (the `wo run` CLI with progress and cancel), the obs report as a table, and the
// gates' answers (ship / merge / mode) with their reasons.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Command } from '../commandManager';
import { taskArg, type WoCommandDeps } from './commands';
import { obsReportMarkdown } from './report';
import { queueNotice, type QueueNotice } from './queueOutcome';
import { askQueueChoices } from './queueQuestions';
import { runQueue, type QueueResult } from './runQueue';
import type { StoreWrites } from '../sessions/sessionSource';
import { cliChildEnv } from '../store/childEnv';

export interface QueueDeps extends WoCommandDeps {
  extensionPath: string;
  output: vscode.OutputChannel;
  /** The ledger store of a folder while the window uses one: `wo run` records its ledgers there. */
  storeWrites: (root: string) => StoreWrites | undefined;
}

function setting<T>(key: string, fallback: T): T {
  return vscode.workspace.getConfiguration('loopLedger.workOrders').get<T>(key) ?? fallback;
}

export class RunQueueCommand implements Command {
  readonly id = 'loopLedger.wo.runQueue';
  constructor(private readonly deps: QueueDeps) {}

  async execute(arg?: unknown): Promise<(QueueResult & { notice: QueueNotice }) | undefined> {
    if (!this.deps.trust.isTrusted) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Loop Ledger: Run Queue runs agents, and this workspace is not trusted.'),
      );
      return undefined;
    }
    const node = await taskArg(this.deps, arg, vscode.l10n.t('Run the work-order queue of a task'));
    if (!node) return undefined;
    const folder =
      vscode.workspace.getWorkspaceFolder(vscode.Uri.file(node.task.path))?.uri.fsPath ?? node.task.path;
    const configs = (await vscode.workspace.findFiles('**/agents.toml', '**/{node_modules,.git}/**', 50)).map(
      (u) => u.fsPath,
    );
    const choices = await askQueueChoices({
      prompter: this.deps.prompter.current,
      task: node.task.path,
      folder,
      configs,
      settings: { builder: setting<string>('builder', ''), reviewer: setting<string>('reviewer', '') },
    });
    if (!choices) return undefined;
    const worktreeSetting = setting<string>('worktree', '');
    const settings = {
      builder: choices.builder,
      parallelMax: choices.parallelMax,
      critic: setting<string>('critic', ''),
      worktree: worktreeSetting
        ? worktreeSetting.startsWith('/')
          ? worktreeSetting
          : join(folder, worktreeSetting)
        : folder,
      cap: setting<number>('cap', 3),
    };
    const store = this.deps.storeWrites(folder);
    this.deps.output.appendLine(
      `wo run ${node.task.path} ${
        settings.builder.kind === 'config'
          ? `--builder-config ${settings.builder.path}`
          : '--builder … --reviewer …'
      }${settings.parallelMax !== undefined ? ` --parallel --max ${settings.parallelMax}` : ''}${
        store ? ` (LOOP_LEDGER_STORE: ${store.label})` : ''
      }`,
    );
    const env = await cliChildEnv(store);
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Work orders: {0}', node.task.name),
        cancellable: true,
      },
      (progress, token) =>
        runQueue(
          this.deps.extensionPath,
          node.task.path,
          folder,
          settings,
          (line) => {
            this.deps.output.appendLine(line);
            const m = /^wo-run-state dispatch ok wo=(\S+) attempts=(\d+)/.exec(line);
            if (m) progress.report({ message: vscode.l10n.t('{0} attempt {1}', m[1]!, m[2]!) });
            this.deps.provider.refresh();
          },
          token,
          env,
        ),
    );
    this.deps.provider.refresh();
    const notice = queueNotice(node.task.name, result);
    for (const line of notice.lines) this.deps.output.appendLine(line);
    this.deps.output.appendLine(notice.message);
    const show =
      notice.severity === 'error'
        ? vscode.window.showErrorMessage
        : notice.severity === 'warning'
          ? vscode.window.showWarningMessage
          : vscode.window.showInformationMessage;
    void show(notice.message);
    return { ...result, notice };
  }
}

export class ShowWorkOrderReportCommand implements Command {
  readonly id = 'loopLedger.wo.showReport';
  constructor(private readonly deps: WoCommandDeps) {}

  async execute(arg?: unknown): Promise<string | undefined> {
    const node = await taskArg(this.deps, arg, vscode.l10n.t('Show the work-order report of a task'));
    if (!node) return undefined;
    const content = await obsReportMarkdown(node.task.dir, node.task.name);
    const doc = await vscode.workspace.openTextDocument({ content, language: 'markdown' });
    await vscode.window.showTextDocument(doc, { preview: true });
    return content;
  }
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

async function gate(
  extensionPath: string,
  args: string[],
): Promise<{ code: number | null; json: Record<string, unknown> }> {
  // The gates read work-order files only, never a ledger: no store is handed down.
  const env = await cliChildEnv(undefined);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(extensionPath, 'dist', 'cli.js'), 'wo', ...args],
      { env, timeout: 60_000 },
      (error, stdout) => {
        const json = parseObject(stdout);
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, json });
      },
    );
  });
}

export class ShowGatesCommand implements Command {
  readonly id = 'loopLedger.wo.showGates';
  constructor(private readonly deps: QueueDeps) {}

  async execute(arg?: unknown): Promise<string | undefined> {
    if (!this.deps.trust.isTrusted) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Loop Ledger: the gates run the loop-ledger CLI (and its hooks), and this workspace is not trusted.',
        ),
      );
      return undefined;
    }
    const node = await taskArg(this.deps, arg, vscode.l10n.t('Show the exit gates of a task'));
    if (!node) return undefined;
    const [ship, merge, mode] = await Promise.all(
      ['ship-gate', 'merge-gate', 'mode-gate'].map((g) => gate(this.deps.extensionPath, [g, node.task.path])),
    );
    const line = (name: string, allowed: unknown, reason: unknown) =>
      `| ${name} | ${allowed === true ? 'yes' : 'no'} | \`${String(reason)}\` |`;
    const content = [
      `# Exit gates — ${node.task.name}`,
      '',
      '| gate | allowed | reason |',
      '| --- | --- | --- |',
      line('ship', ship?.json.ship_ok, ship?.json.reason),
      line('merge', merge?.json.merge_ok, merge?.json.reason),
      line('auto-merge', merge?.json.auto_merge_allowed, merge?.json.reason),
      line('mode (PR)', mode?.json.allowed, mode?.json.reason),
      '',
    ].join('\n');
    const doc = await vscode.workspace.openTextDocument({ content, language: 'markdown' });
    await vscode.window.showTextDocument(doc, { preview: true });
    return content;
  }
}
