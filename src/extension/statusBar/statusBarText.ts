// What the status bar item says about a session. Pure (no vscode), so a unit test reads it.
// A closed session must not read as a running loop: it shows how it ended instead of a spinner.
import type { Outcome } from '../../engine/types';
import { budgetWords, tightestBudget } from '../../shared/budget-words';
import { formatScore } from '../../shared/numbers';
import { currentEpochView } from '../sessions/epochs';
import { progressText } from '../sessions/labels';
import type { ReadableSession } from '../sessions/sessionEntry';

export interface StatusBarView {
  readonly text: string;
  readonly tooltip: string;
}

/** The codicon for how a closed session ended. */
const CLOSED_ICON: Partial<Record<Outcome, string>> = {
  complete: '$(pass)',
  escalate: '$(report)',
  stop: '$(circle-slash)',
  revise: '$(edit)',
};

const SEPARATOR = ' · ';

export function statusBarView(entry: ReadableSession): StatusBarView {
  const epoch = currentEpochView(entry.ledger);
  // A loop-engineering ledger also shows its budget: the tightest cap here, every cap in the tooltip.
  const tightest = tightestBudget(entry.status.budget);
  const capText = tightest ? `${SEPARATOR}${tightest}` : '';
  const budget = budgetWords(entry.status.budget).replace(/^; budget /, '');
  const budgetText = budget ? `; budget ${budget}` : '';
  const { last_outcome: last, rubric_verdict: verdict, weighted_total: total } = entry.status;
  const rubric =
    verdict === null ? 'not scored' : total === null ? verdict : `${verdict} ${formatScore(total)}`;
  const count = `${epoch.records.length} iteration${epoch.records.length === 1 ? '' : 's'}`;
  if (epoch.state === 'closed') {
    const ended = entry.ledger.final_outcome ?? last ?? 'closed';
    const icon = CLOSED_ICON[ended as Outcome] ?? '$(lock)';
    return {
      text: `${icon} ${entry.session} closed: ${ended}${SEPARATOR}${count}${SEPARATOR}${rubric}${capText}`,
      tooltip: `Loop Ledger — ${entry.session} is closed (${ended}) after ${count} this epoch; rubric ${rubric}${budgetText}. Nothing is running. Click for its status.`,
    };
  }
  const lastText = last ?? 'no iterations';
  if (epoch.state === 'paused') {
    return {
      text: `$(debug-pause) ${entry.session} paused${SEPARATOR}${progressText(epoch)}${SEPARATOR}${rubric}${capText}`,
      tooltip: `Loop Ledger — ${entry.session} is paused at ${progressText(epoch)} iterations this epoch, last outcome ${lastText}, rubric ${rubric}${budgetText}. Resume to continue. Click for its status.`,
    };
  }
  return {
    text: `$(sync) ${entry.session} ${progressText(epoch)}${SEPARATOR}${lastText}${SEPARATOR}${rubric}${capText}`,
    tooltip: `Loop Ledger — ${entry.session} is open: ${progressText(epoch)} iterations this epoch, last outcome ${lastText}, rubric ${rubric}${budgetText}. Click for its status.`,
  };
}
