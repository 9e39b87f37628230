// "Repeat Until Settled…": the spec string (the last one used is remembered per folder), the
// recipe when ambiguous, progress with the iteration, its classification and change metric;
// Cancel stops between iterations and records pause. The convergence summary opens as a
// markdown preview. Everything runs through src/app/repeat-operation.ts, as the CLI does.
import * as vscode from 'vscode';
import { loadLedgerAsync } from '../../app/read-operations-async';
import { repeatOperation } from '../../app/repeat-operation';
import type { RepeatOutcome, RepeatRequest } from '../../app/repeat-types';
import { readRepeatState } from '../../engine/repeat/ledger';
import { parseRepeatSpec } from '../../engine/repeat/spec';
import { repeatUnfinished } from '../../engine/repeat/state';
import { isRefusal } from '../../engine/refusal';
import type { Ledger } from '../../engine/types';
import { sessionIdProblem } from '../../store/session-id';
import type { Command } from '../commandManager';
import { BACK } from '../input';
import type { PrompterSlot } from '../input';
import type { SessionsTreeProvider } from '../sessions/treeProvider';
import type { TrustGate } from '../workspace/trust';
import { chooseSession } from '../commands/target';
import { inUiWords } from '../findingWords';
import { PrompterAsker } from './prompterAsker';

const TITLE = (): string => vscode.l10n.t('Repeat Until Settled');
const MEMORY_KEY = 'loopLedger.repeat.lastSpec';
/** Per run of the inner step; a person can always Cancel sooner. */
const STEP_TIMEOUT_MS = 60 * 60 * 1000;

export interface RepeatDeps {
  readonly prompter: PrompterSlot;
  readonly sessions: SessionsTreeProvider;
  readonly trust: TrustGate;
  readonly output: vscode.OutputChannel;
  readonly memory: vscode.Memento;
}

export interface RepeatCommandReport {
  readonly status: 'done' | 'paused' | 'refused' | 'cancelled' | 'untrusted' | 'nothing-to-do';
  readonly message: string;
  readonly exitCode?: number;
  readonly outcome?: RepeatOutcome;
}

function repeatInProgress(ledger: Ledger): boolean {
  const state = readRepeatState(ledger);
  return state !== null && !isRefusal(state) && repeatUnfinished(state);
}

/** Read fresh (the tree may not have seen the last write yet); unreadable → the operation says why. */
async function repeatInProgressOnDisk(root: string, session: string): Promise<boolean> {
  try {
    return repeatInProgress(await loadLedgerAsync(root, session));
  } catch {
    return false;
  }
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
    const request: RepeatRequest = {
      root: chosen.root,
      session: chosen.session,
      timeoutMs: STEP_TIMEOUT_MS,
      asker: new PrompterAsker(
        () => deps.prompter.current,
        (text) => {
          deps.output.appendLine(text);
          void vscode.window.showInformationMessage(vscode.l10n.t('Loop Ledger: {0}', text));
        },
      ),
    };
    const continuing = await repeatInProgressOnDisk(chosen.root, chosen.session);
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
      request.start = {
        inner: parsed.spec.inner,
        followUp: parsed.spec.followUp,
        max: parsed.spec.max,
        scope: [],
        exclude: [],
        summaryFile: null,
      };
    }
    const outcome = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Loop Ledger: {0}', TITLE()),
        cancellable: true,
      },
      async (progress, token) => {
        const stop = new AbortController();
        const cancelled = token.onCancellationRequested(() => stop.abort());
        try {
          return await repeatOperation({
            ...request,
            stop: stop.signal,
            onProgress: (e) => {
              const line = vscode.l10n.t(
                'iteration {0}: {1} — {2}',
                e.iteration,
                e.classification,
                e.changeMetric,
              );
              deps.output.appendLine(`${TITLE()} (${chosen.session}) ${line} — ${e.tag}`);
              progress.report({ message: line });
            },
          });
        } finally {
          cancelled.dispose();
        }
      },
    );
    deps.sessions.refreshAll();
    return this.report(outcome);
  }

  private async report(outcome: RepeatOutcome): Promise<RepeatCommandReport> {
    const { deps } = this;
    const report = outcome.payload;
    if (!report) {
      // In the UI's words, each finding a sentence, as every refusal the extension shows.
      const findings = outcome.findings.map(inUiWords).join(' ');
      const message = vscode.l10n.t(
        'Loop Ledger: {0} refused (exit {1}). {2}',
        TITLE(),
        outcome.exitCode,
        findings,
      );
      deps.output.appendLine(message);
      void vscode.window.showErrorMessage(message);
      return { status: 'refused', message, exitCode: outcome.exitCode, outcome };
    }
    for (const note of report.notes) deps.output.appendLine(vscode.l10n.t('{0}: {1}', TITLE(), note));
    // The summary (and any open question) as a person reads it, beside the work.
    void vscode.commands
      .executeCommand('markdown.showPreviewToSide', vscode.Uri.file(report.state_file))
      .then(undefined, () =>
        vscode.window.showTextDocument(vscode.Uri.file(report.state_file), { preview: true }),
      );
    // A question still open (a pause, or the follow-up after a Stay) waits for the next run.
    const paused = report.status !== 'finished' || report.question !== null;
    const message = paused
      ? report.question
        ? vscode.l10n.t(
            '{0}: paused at iteration {1} — {2}. Run {3} on the session to continue.',
            report.session,
            report.iterations,
            report.question.recommendation,
            TITLE(),
          )
        : vscode.l10n.t(
            '{0}: paused at iteration {1}. Run {2} on the session to continue.',
            report.session,
            report.iterations,
            TITLE(),
          )
      : vscode.l10n.t(
          '{0}: {1} after {2} iteration(s).',
          report.session,
          report.summary.exit_label,
          report.iterations,
        );
    deps.output.appendLine(vscode.l10n.t('{0}: {1}', TITLE(), message));
    void (paused || outcome.exitCode !== 0
      ? vscode.window.showWarningMessage(vscode.l10n.t('Loop Ledger: {0}', message))
      : vscode.window.showInformationMessage(vscode.l10n.t('Loop Ledger: {0}', message)));
    return { status: paused ? 'paused' : 'done', message, exitCode: outcome.exitCode, outcome };
  }
}
