import * as vscode from 'vscode';
import type { Outcome } from '../../app/outcome';
import { EXIT_MEANING } from '../../engine/refusal';
import { inUiWords } from '../findingWords';
import { TrustGate } from '../workspace/trust';
import type { CommandDeps, CommandReport } from './deps';

/**
 * Shows a refused operation: the exit code, what it means, and the engine's own findings, one
 * per line in the output channel. Nothing was written (the operations write only on success).
 */
export function reportRefusal<P>(
  deps: CommandDeps,
  title: string,
  outcome: Outcome<P>,
  cli?: string,
): CommandReport<P> {
  // In the UI's words, each a sentence: "“Verdict” needs “Critic next”: … Nothing was written."
  const findings = outcome.findings.map(inUiWords);
  const meaning = EXIT_MEANING[outcome.exitCode];
  // The frame is the shell's and translated; the exit meaning and findings are the engine's English.
  const message = vscode.l10n.t(
    'Loop Ledger: {0} refused (exit {1}: {2}). {3} Nothing was written.',
    title,
    outcome.exitCode,
    meaning,
    findings.join(' '),
  );
  deps.output.appendLine(vscode.l10n.t('{0}: refused, exit {1} ({2})', title, outcome.exitCode, meaning));
  for (const finding of findings) deps.output.appendLine(`  ${finding}`);
  void vscode.window.showErrorMessage(message);
  return { status: 'refused', message, exitCode: outcome.exitCode, findings, payload: outcome.payload, cli };
}

export function reportDone<P>(
  deps: CommandDeps,
  message: string,
  payload: P | undefined,
  extra: { cli?: string; warn?: boolean; exitCode?: number; findings?: string[] } = {},
): CommandReport<P> {
  deps.output.appendLine(message);
  for (const finding of extra.findings ?? []) deps.output.appendLine(`  ${finding}`);
  const shown = vscode.l10n.t('Loop Ledger: {0}', message);
  void (extra.warn ? vscode.window.showWarningMessage(shown) : vscode.window.showInformationMessage(shown));
  return {
    status: 'done',
    message,
    payload,
    cli: extra.cli,
    exitCode: extra.exitCode ?? 0,
    findings: extra.findings,
  };
}

export function reportUntrusted(deps: CommandDeps, title: string): CommandReport<never> {
  const message = TrustGate.refusal(title);
  deps.output.appendLine(message);
  void vscode.window.showWarningMessage(message);
  return { status: 'untrusted', message };
}

export const CANCELLED: CommandReport<never> = { status: 'cancelled' };

export function nothingToDo(message: string): CommandReport<never> {
  void vscode.window.showInformationMessage(vscode.l10n.t('Loop Ledger: {0}', message));
  return { status: 'nothing-to-do', message };
}

/** A command argument that names no session of the workspace: nothing is read or written. */
export function reportForeignArgument(
  deps: CommandDeps,
  title: string,
  reason: string,
): CommandReport<never> {
  return reportRefusal(deps, title, { exitCode: 2, findings: [{ message: `${reason}.` }] });
}
