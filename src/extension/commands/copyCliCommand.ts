import * as vscode from 'vscode';
import { BACK, type PickItem } from '../input';
import type { SessionEntry } from '../sessions/sessionEntry';
import { cliLine } from './cliHistory';
import type { CommandDeps, CommandReport } from './deps';
import { CANCELLED } from './report';
import { SessionCommand, type PickFirstAny } from './sessionCommand';

/**
 * Copies a `loop-ledger` command line for a session to the clipboard: first the exact action
 * last taken on it from VS Code (so an agent in a terminal can repeat or script it), then the
 * read-only commands that always apply.
 */
export class CopyCliCommandCommand extends SessionCommand<CommandReport<{ text: string }>, PickFirstAny> {
  readonly id = 'loopLedger.copyCliCommand';
  protected readonly needsTrust = false;
  protected readonly target: PickFirstAny = {
    ask: 'first-any',
    id: 'cli.session',
    title: () => vscode.l10n.t('Loop Ledger: Copy CLI Command'),
    accept: () => true,
    none: () => vscode.l10n.t('there are no sessions in this workspace yet.'),
  };

  protected title(): string {
    return vscode.l10n.t('Copy CLI Command');
  }

  protected async run(chosen: SessionEntry): Promise<CommandReport<{ text: string }>> {
    const { deps } = this;
    const prompter = deps.prompter.current;
    const answer = await prompter.pickOne({
      id: 'cli.command',
      title: vscode.l10n.t('Loop Ledger: Copy CLI Command — {0}', chosen.session),
      placeholder: vscode.l10n.t('Which command?'),
      items: commandChoices(this.deps, chosen),
    });
    if (answer === undefined || answer === BACK) return CANCELLED;
    await vscode.env.clipboard.writeText(answer);
    const message = vscode.l10n.t('copied: {0}', answer);
    deps.output.appendLine(message);
    void vscode.window.showInformationMessage(vscode.l10n.t('Loop Ledger: {0}', message));
    return { status: 'done', message, payload: { text: answer } };
  }
}

function commandChoices(deps: CommandDeps, entry: SessionEntry): PickItem<string>[] {
  const key: [string, string][] = [
    ['root', entry.root],
    ['session', entry.session],
  ];
  const items: PickItem<string>[] = [];
  const last = deps.cliHistory.lastFor(entry.root, entry.session);
  if (last)
    items.push({
      label: vscode.l10n.t('last action ({0})', last.title),
      detail: last.line,
      value: last.line,
    });
  for (const sub of ['status', 'resume', 'brief'] as const) {
    const extra: [string, string][] =
      sub === 'brief'
        ? [
            ['diff-file', 'change.diff'],
            ['verification-file', 'suite.txt'],
          ]
        : [];
    const line = cliLine(sub, [...key, ...extra]);
    items.push({ label: sub, detail: line, value: line });
  }
  const iterate = cliLine('iterate', [...key, ['outcome', 'continue'], ['action', 'ACTION-ID']]);
  items.push({ label: vscode.l10n.t('iterate (template)'), detail: iterate, value: iterate });
  return items;
}
