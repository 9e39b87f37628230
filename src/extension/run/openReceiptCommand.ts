// Open Receipt: the receipt viewer for a run's final-receipt.json (argument: a file URI, or the
// newest receipt of a session node; else a pick of every receipt in the workspace).
import { readdir, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { RUN_LEDGER_FILE } from '../../app/run/session';
import { readTextFileAsync } from '../../store/read-async';
import { LEDGER_SIZE_LIMIT } from '../../store/limits';
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

/**
 * The receipts of one session's runs, newest first (the run dir's run-ledger.json names its
 * session). Read asynchronously through the store's capped reader: a run folder holding a FIFO
 * or a huge file named run-ledger.json is passed over, never waited on.
 */
async function receiptsOfSession(root: string, session: string): Promise<ReceiptRef[]> {
  const linked: ReceiptRef[] = [];
  for (const ref of await receiptsUnder(root)) {
    const read = await readTextFileAsync(join(dirname(ref.file), RUN_LEDGER_FILE), LEDGER_SIZE_LIMIT);
    if (read.kind === 'ok' && sessionNamedBy(read.text) === session) linked.push(ref);
  }
  return linked;
}

function sessionNamedBy(text: string): unknown {
  try {
    return (JSON.parse(text) as { session?: unknown } | null)?.session;
  } catch {
    return undefined;
  }
}

/** Every run folder's final-receipt.json under `root`, newest run first. */
async function receiptsUnder(root: string): Promise<ReceiptRef[]> {
  const dir = join(root, '.loop', 'runs');
  const names = await readdir(dir).catch(() => [] as string[]);
  const refs = names
    .sort()
    .reverse()
    .map((name) => ({ root, file: join(dir, name, 'final-receipt.json') }));
  const present = await Promise.all(
    refs.map((r) =>
      stat(r.file).then(
        () => true,
        () => false,
      ),
    ),
  );
  return refs.filter((_, index) => present[index]);
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
        ref = (await receiptsOfSession(node.root.path, node.entry.session))[0];
        if (!ref) return nothingToDo(vscode.l10n.t('session {0} has no run receipt.', node.entry.session));
      }
    }
    if (!ref) {
      const all = (await Promise.all(roots.map((r) => receiptsUnder(r.path)))).flat();
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
