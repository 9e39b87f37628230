import * as vscode from 'vscode';
import type { IterationRecord, Outcome, StallName } from '../../engine/types';
import type { SessionState } from './sessionEntry';

/** One codicon per outcome, so a column of iterations reads at a glance. */
const OUTCOME_ICONS: Record<Outcome, [codicon: string, color?: string]> = {
  continue: ['debug-continue'],
  complete: ['pass', 'testing.iconPassed'],
  revise: ['edit', 'charts.yellow'],
  escalate: ['report', 'problemsWarningIcon.foreground'],
  pause: ['debug-pause', 'charts.blue'],
  stop: ['circle-slash', 'problemsErrorIcon.foreground'],
};

/** A stall-promoted iteration shows the predicate that fired, in the warning colour. */
const STALL_ICONS: Record<StallName, string> = {
  'dependency-unavailable': 'plug',
  'repeated-error': 'flame',
  'circular-state': 'sync',
  'retries-exhausted': 'history',
  'budget-stop': 'dashboard',
  'cost-exhausted': 'credit-card',
  'tokens-exhausted': 'symbol-numeric',
  'time-exhausted': 'watch',
};

export function outcomeIcon(outcome: Outcome | null | undefined): vscode.ThemeIcon {
  const [codicon, color] = (outcome && OUTCOME_ICONS[outcome]) || ['circle-outline'];
  return new vscode.ThemeIcon(codicon, color ? new vscode.ThemeColor(color) : undefined);
}

export function iterationIcon(record: IterationRecord, promoted: boolean): vscode.ThemeIcon {
  if (promoted && record.stall) {
    return new vscode.ThemeIcon(
      STALL_ICONS[record.stall] ?? 'warning',
      new vscode.ThemeColor('problemsWarningIcon.foreground'),
    );
  }
  return outcomeIcon(record.outcome);
}

export function sessionIcon(state: SessionState, finalOutcome: Outcome | null): vscode.ThemeIcon {
  if (state === 'open') return new vscode.ThemeIcon('play-circle', new vscode.ThemeColor('charts.green'));
  if (state === 'paused') return outcomeIcon('pause');
  return outcomeIcon(finalOutcome);
}

export function epochIcon(current: boolean): vscode.ThemeIcon {
  return new vscode.ThemeIcon(current ? 'milestone' : 'history');
}

export const BROKEN_ICON = new vscode.ThemeIcon(
  'error',
  new vscode.ThemeColor('problemsErrorIcon.foreground'),
);
export const FOLDER_ICON = vscode.ThemeIcon.Folder;
/** "Show older iterations…": the older rows appear above it. */
export const OLDER_ICON = new vscode.ThemeIcon('fold-up');
