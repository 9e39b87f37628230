// One repeat run in the window, shared by "Repeat Until Settled…" and Resume (on a session whose
// repeat is unfinished): progress with the iteration, its classification and change metric;
// Cancel stops between iterations and records pause; a pause is the quick pick of PrompterAsker;
// the convergence summary opens as a markdown preview. Everything runs through
// src/app/repeat/operation.ts, as the CLI does.
import * as vscode from 'vscode';
import { repeatOperation } from '../../app/repeat/operation';
import { checkpointSettings } from '../checkpoints/settings';
import type { RepeatOutcome, RepeatRequest, StartRequest } from '../../app/repeat/types';
import type { PrompterSlot } from '../input';
import type { SessionsTreeProvider } from '../sessions/treeProvider';
import { inUiWords } from '../findingWords';
import { windowLedgers } from '../store/driverLedgers';
import { PrompterAsker } from './prompterAsker';

const TITLE = (): string => vscode.l10n.t('Repeat Until Settled');
/** Per run of the inner step; a person can always Cancel sooner. */
const STEP_TIMEOUT_MS = 60 * 60 * 1000;

/** What running a repeat in the window needs (both commands' deps have it). */
export interface RepeatWindowDeps {
  readonly prompter: PrompterSlot;
  readonly sessions: SessionsTreeProvider;
  readonly output: vscode.OutputChannel;
}

export interface RepeatCommandReport {
  readonly status: 'done' | 'paused' | 'refused' | 'cancelled' | 'untrusted' | 'nothing-to-do';
  readonly message: string;
  readonly exitCode?: number;
  readonly outcome?: RepeatOutcome;
}

/** Starts a repeat (`start` given) or continues the session's unfinished one (no `start`). */
export async function runRepeatInWindow(
  deps: RepeatWindowDeps,
  target: { root: string; session: string },
  start?: StartRequest,
): Promise<RepeatCommandReport> {
  const request: RepeatRequest = {
    root: target.root,
    session: target.session,
    // On a store window the ledger is the store's (as `repeat` on LOOP_LEDGER_STORE); the
    // repeat's own files (its state and summary, the run marker) stay in the folder.
    ledgers: windowLedgers(deps.sessions, target.root),
    timeoutMs: STEP_TIMEOUT_MS,
    ...checkpointSettings(target.root),
    ...(start ? { start } : {}),
    asker: new PrompterAsker(
      () => deps.prompter.current,
      (text) => {
        deps.output.appendLine(text);
        void vscode.window.showInformationMessage(vscode.l10n.t('Loop Ledger: {0}', text));
      },
      () => void deps.sessions.refreshAll(),
    ),
  };
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
            deps.output.appendLine(`${TITLE()} (${target.session}) ${line} — ${e.tag}`);
            progress.report({ message: line });
          },
        });
      } finally {
        cancelled.dispose();
      }
    },
  );
  deps.sessions.refreshAll();
  return reportOutcome(deps, outcome);
}

function reportOutcome(deps: RepeatWindowDeps, outcome: RepeatOutcome): RepeatCommandReport {
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
