import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { openOp } from '../../app/contract/operations';
import type { OpenPayload } from '../../engine/open';
import { sessionIdProblem } from '../../store';
import type { Command } from '../commandManager';
import { cliLine, withFlags } from '../commands/cliHistory';
import type { CommandDeps, CommandReport } from '../commands/deps';
import { CANCELLED, nothingToDo, reportDone, reportRefusal, reportUntrusted } from '../commands/report';
import { writeWithoutBlocking } from '../workspace/ledgerWrites';
import { workspaceRoots } from '../workspace/roots';

export const OPEN_ENGINEERING_LOOP_COMMAND = 'loopLedger.openEngineeringLoop';
const TITLE = (): string => vscode.l10n.t('Open Loop (loop-engineering)');

/**
 * `open --engineering` from the editor: the contract is the `.loop.md` file the CodeLens sits
 * on (or the active editor's), the session id is asked for; the engine validates strictly and
 * refuses with NEEDS_INPUT and every finding. Refused in an untrusted workspace (it writes).
 * On a store window the ledger is opened in the store, as `open --engineering` with a store does.
 */
export class OpenEngineeringLoopCommand implements Command {
  readonly id = 'loopLedger.openEngineeringLoop';

  constructor(private readonly deps: CommandDeps) {}

  async execute(argument?: unknown): Promise<CommandReport<OpenPayload>> {
    const { deps } = this;
    if (!deps.trust.isTrusted) return reportUntrusted(deps, TITLE());
    const uri = argument instanceof vscode.Uri ? argument : vscode.window.activeTextEditor?.document.uri;
    // A JSON file is judged by the engine like any other: not of the loop-engineering kind → refused.
    if (!uri || !/\.(?:loop\.md|json)$/.test(uri.path))
      return nothingToDo(vscode.l10n.t('open a *.loop.md or loop-engineering JSON contract first.'));
    const roots = workspaceRoots();
    const root =
      roots
        .filter((r) => uri.fsPath.startsWith(r.path + '/'))
        .sort((a, b) => b.path.length - a.path.length)[0]?.path ?? dirname(uri.fsPath);
    const session = await deps.prompter.current.inputText({
      id: 'openEngineering.session',
      title: vscode.l10n.t('Loop Ledger: {0}', TITLE()),
      prompt: vscode.l10n.t('Session id (letters, digits, . _ -)'),
      validate: (text) =>
        text === '' ? vscode.l10n.t('a session id is needed') : (sessionIdProblem(text) ?? undefined),
    });
    if (typeof session !== 'string') return CANCELLED;
    const store = deps.sessions.storeWrites(root);
    const cli = withFlags(
      cliLine('open', [
        ['root', root],
        ['session', session],
        ['engineering', uri.fsPath],
      ]),
      store?.cliFlags ?? [],
    );
    const input = { engineeringPath: uri.fsPath, now: deps.now() };
    const outcome = store
      ? await store.run((ops) => ops.open(session, input))
      : await writeWithoutBlocking((lock) => openOp(root, session, input, lock));
    if (store) await deps.sessions.refreshSession(root, session);
    else await deps.sessions.refreshFile(join(root, '.loop', 'ledgers', `${session}.json`));
    if (outcome.exitCode !== 0 || !outcome.payload) return reportRefusal(deps, TITLE(), outcome, cli);
    deps.cliHistory.remember(root, session, 'open', cli);
    return reportDone(
      deps,
      vscode.l10n.t(
        '{0}: open under {1}, next iteration {2}.',
        session,
        vscode.workspace.asRelativePath(uri),
        outcome.payload.next_iteration,
      ),
      outcome.payload,
      { cli },
    );
  }
}
