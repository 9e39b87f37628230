// Open Receipt: the receipt viewer for a run's final-receipt.json (argument: a file URI, or the
// newest receipt of a session node; else a pick of every receipt in the workspace).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { RUN_LEDGER_FILE } from '../../app/run-session';
import * as vscode from 'vscode';
import type { Command } from '../commandManager';
import type { CommandDeps, CommandReport } from '../commands/deps';
import { CANCELLED, nothingToDo } from '../commands/report';
import { sessionOf, type SessionsNode } from '../sessions/nodes';
import { workspaceRoots } from '../workspace/roots';
import type { ReceiptPanels } from './receiptPanel';

interface ReceiptRef {
  root: string;
  file: string;
}

/** The receipts of one session's runs, newest first (the run dir's run-ledger.json names its session). */
function receiptsOfSession(root: string, session: string): ReceiptRef[] {
  return receiptsUnder(root).filter((r) => {
    try {
      const link = JSON.parse(readFileSync(join(dirname(r.file), RUN_LEDGER_FILE), 'utf8')) as {
        session?: unknown;
      };
      return link.session === session;
    } catch {
      return false;
    }
  });
}

function receiptsUnder(root: string): ReceiptRef[] {
  const dir = join(root, '.loop', 'runs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .reverse()
    .map((name) => ({ root, file: join(dir, name, 'final-receipt.json') }))
    .filter((r) => existsSync(r.file));
}

export class OpenReceiptCommand implements Command {
  readonly id = 'loopLedger.openReceipt';

  constructor(
    private readonly deps: CommandDeps,
    private readonly receipts: ReceiptPanels,
  ) {}

  async execute(argument?: unknown): Promise<CommandReport<{ verdict: string; html: string }>> {
    const roots = workspaceRoots();
    let ref: ReceiptRef | undefined;
    if (argument instanceof vscode.Uri) {
      const root = roots.find((r) => !relative(r.path, argument.fsPath).startsWith('..'));
      if (root) ref = { root: root.path, file: argument.fsPath };
    } else if (typeof argument === 'object' && argument !== null && 'kind' in argument) {
      const node = sessionOf(argument as SessionsNode);
      if (node) {
        ref = receiptsOfSession(node.root.path, node.entry.session)[0];
        if (!ref) return nothingToDo(vscode.l10n.t('session {0} has no run receipt.', node.entry.session));
      }
    }
    if (!ref) {
      const all = roots.flatMap((r) => receiptsUnder(r.path));
      if (all.length === 0)
        return nothingToDo(vscode.l10n.t('no run receipt yet (Loop Ledger: Run Loop writes one).'));
      const pick = await this.deps.prompter.current.pickOne({
        id: 'receipt.pick',
        title: vscode.l10n.t('Loop Ledger: Open Receipt'),
        placeholder: vscode.l10n.t('Which run?'),
        items: all.map((r) => ({ label: vscode.workspace.asRelativePath(r.file), value: r })),
      });
      if (!pick || typeof pick === 'symbol') return CANCELLED;
      ref = pick;
    }
    const { panel, model } = await this.receipts.show(ref.root, ref.file);
    return {
      status: 'done',
      message: vscode.l10n.t('receipt {0}', model.runId),
      payload: { verdict: model.verdict, html: panel.webview.html },
    };
  }
}
