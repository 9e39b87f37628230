// "Repeat Until Settled…": the spec string (the last one used is remembered per folder), then
// the run in the window (runInWindow.ts: progress, Cancel, the pause quick pick, the summary),
// or, on a session whose repeat is unfinished, no spec: the run continues it.
import * as vscode from 'vscode';
import { repeatRuleNowAsync } from '../../app/repeat/resume';
import type { StartRequest } from '../../app/repeat/types';
import { repeatInProgress } from '../../engine/repeat/ledger';
import { parseRepeatSpec } from '../../engine/repeat/spec';
import { sessionIdProblem } from '../../store/session-id';
import type { Command } from '../commandManager';
import { BACK } from '../input';
import type { PrompterSlot } from '../input';
import type { SessionsTreeProvider } from '../sessions/treeProvider';
import { windowLedgers } from '../store/driverLedgers';
import type { TrustGate } from '../workspace/trust';
import { chooseSession } from '../commands/target';
import { runRepeatInWindow, type RepeatCommandReport } from './runInWindow';

export type { RepeatCommandReport } from './runInWindow';

const TITLE = (): string => vscode.l10n.t('Repeat Until Settled');
const MEMORY_KEY = 'loopLedger.repeat.lastSpec';

export interface RepeatDeps {
  readonly prompter: PrompterSlot;
  readonly sessions: SessionsTreeProvider;
  readonly trust: TrustGate;
  readonly output: vscode.OutputChannel;
  readonly memory: vscode.Memento;
}

/** A `{root, session}` key (tests, other commands) or a tree node, else the person picks. */
async function target(
  deps: RepeatDeps,
  argument: unknown,
): Promise<{ root: string; session: string } | 'cancelled' | { none: string }> {
  const key = argument as { root?: unknown; session?: unknown; kind?: unknown } | undefined;
  // A key is used directly only for a valid session id under a workspace folder (the tree may
  // not have read a ledger the CLI has just written); anything else goes through the tree.
  if (
    key &&
    key.kind === undefined &&
    typeof key.root === 'string' &&
    typeof key.session === 'string' &&
    sessionIdProblem(key.session) === null &&
    (vscode.workspace.workspaceFolders ?? []).some((folder) => folder.uri.fsPath === key.root)
  ) {
    return { root: key.root, session: key.session };
  }
  const chosen = await chooseSession(deps.sessions, deps.prompter.current, argument, {
    id: 'repeat.session',
    title: vscode.l10n.t('Loop Ledger: {0}', TITLE()),
    accept: (e) => e.ledger.status === 'open' || repeatInProgress(e.ledger),
    none: vscode.l10n.t('there is no open session to repeat in (open a loop first).'),
  });
  if (chosen === 'cancelled' || 'none' in chosen) return chosen;
  if ('refused' in chosen) return { none: chosen.refused };
  return { root: chosen.root, session: chosen.session };
}

export class RepeatUntilSettledCommand implements Command {
  readonly id = 'loopLedger.repeatUntilSettled';

  constructor(private readonly deps: RepeatDeps) {}

  async execute(argument?: unknown): Promise<RepeatCommandReport> {
    const { deps } = this;
    if (!deps.trust.isTrusted) {
      const message = vscode.l10n.t(
        'Loop Ledger: {0} runs processes, which an untrusted workspace does not allow.',
        TITLE(),
      );
      void vscode.window.showWarningMessage(message);
      return { status: 'untrusted', message };
    }
    const chosen = await target(deps, argument);
    if (chosen === 'cancelled') return { status: 'cancelled', message: 'cancelled' };
    if ('none' in chosen) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Loop Ledger: {0}', chosen.none));
      return { status: 'nothing-to-do', message: chosen.none };
    }
    const continuing = await repeatRuleNowAsync(
      chosen.root,
      chosen.session,
      repeatInProgress,
      windowLedgers(deps.sessions, chosen.root),
    );
    let start: StartRequest | undefined;
    if (!continuing) {
      const remembered = deps.memory.get<Record<string, string>>(MEMORY_KEY, {});
      const spec = await deps.prompter.current.inputText({
        id: 'repeat.spec',
        title: vscode.l10n.t('Loop Ledger: {0}', TITLE()),
        prompt: vscode.l10n.t('The step to repeat: <inner command> [then <follow-up>] [max=N]'),
        placeholder: vscode.l10n.t('npm run tidy then npm run release max=10'),
        value: remembered[chosen.root] ?? '',
        validate: (text) => {
          const parsed = parseRepeatSpec(text);
          return parsed.ok ? undefined : parsed.message;
        },
      });
      if (spec === undefined || spec === BACK) return { status: 'cancelled', message: 'cancelled' };
      const parsed = parseRepeatSpec(spec);
      if (!parsed.ok) return { status: 'refused', message: parsed.message, exitCode: 2 };
      for (const note of parsed.spec.notes)
        deps.output.appendLine(vscode.l10n.t('{0}: note: {1}', TITLE(), note));
      await deps.memory.update(MEMORY_KEY, { ...remembered, [chosen.root]: spec });
      start = {
        inner: parsed.spec.inner,
        followUp: parsed.spec.followUp,
        max: parsed.spec.max,
        scope: [],
        exclude: [],
        summaryFile: null,
      };
    }
    return runRepeatInWindow(deps, chosen, start);
  }
}
