// What the status bar item says about a session. Pure (no vscode), so a unit test reads it.
// A closed session must not read as a running loop: it shows how it ended instead of a spinner.
import * as l10n from '@vscode/l10n';
import type { Outcome } from '../../engine/types';
import { budgetWords, tightestBudget } from '../../shared/budget-words';
import { formatScore } from '../../shared/numbers';
import { repeatWaitsForAnswer } from '../repeat/labels';
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
  const epoch = currentEpochView(entry.ledger, entry.held);
  // A loop-engineering ledger also shows its budget: the tightest cap here, every cap in the tooltip.
  const tightest = tightestBudget(entry.status.budget);
  const capText = tightest ? `${SEPARATOR}${tightest}` : '';
  const budget = budgetWords(entry.status.budget).replace(/^; budget /, '');
  const budgetText = budget ? l10n.t('; budget {0}', budget) : '';
  const { last_outcome: last, rubric_verdict: verdict, weighted_total: total } = entry.status;
  const rubric =
    verdict === null ? l10n.t('not scored') : total === null ? verdict : `${verdict} ${formatScore(total)}`;
  const count = epoch.count === 1 ? l10n.t('1 iteration') : l10n.t('{0} iterations', epoch.count);
  if (epoch.state === 'closed') {
    const ended = entry.ledger.final_outcome ?? last ?? 'closed';
    const icon = CLOSED_ICON[ended as Outcome] ?? '$(lock)';
    return {
      text: `${icon} ${l10n.t('{0} closed: {1}', entry.session, ended)}${SEPARATOR}${count}${SEPARATOR}${rubric}${capText}`,
      tooltip: l10n.t(
        'Loop Ledger — {0} is closed ({1}) after {2} this epoch; rubric {3}{4}. Nothing is running. Click for its status.',
        entry.session,
        ended,
        count,
        rubric,
        budgetText,
      ),
    };
  }
  const lastText = last ?? l10n.t('no iterations');
  if (repeatWaitsForAnswer(entry.ledger)) {
    return {
      text: `$(question) ${entry.session} ${progressText(epoch)}${SEPARATOR}${l10n.t('waiting for an answer')}${SEPARATOR}${rubric}${capText}`,
      tooltip: l10n.t(
        'Loop Ledger — {0}: repeat waits for an answer to its question after {1} iterations this epoch; nothing runs until it is answered. Click for its status.',
        entry.session,
        progressText(epoch),
      ),
    };
  }
  if (epoch.state === 'paused') {
    return {
      text: `$(debug-pause) ${l10n.t('{0} paused', entry.session)}${SEPARATOR}${progressText(epoch)}${SEPARATOR}${rubric}${capText}`,
      tooltip: l10n.t(
        'Loop Ledger — {0} is paused at {1} iterations this epoch, last outcome {2}, rubric {3}{4}. Resume to continue. Click for its status.',
        entry.session,
        progressText(epoch),
        lastText,
        rubric,
        budgetText,
      ),
    };
  }
  return {
    text: `$(sync) ${entry.session} ${progressText(epoch)}${SEPARATOR}${lastText}${SEPARATOR}${rubric}${capText}`,
    tooltip: l10n.t(
      'Loop Ledger — {0} is open: {1} iterations this epoch, last outcome {2}, rubric {3}{4}. Click for its status.',
      entry.session,
      progressText(epoch),
      lastText,
      rubric,
      budgetText,
    ),
  };
}
