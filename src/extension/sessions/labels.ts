// The words a person reads in the Sessions tree and the status bar. Pure, so the bench and the
// tests can check them without a window.
import * as l10n from '@vscode/l10n';
import type { IterationRecord, Outcome } from '../../engine/types';
import { currentEpochView, type EpochView } from './epochs';
import type { ReadableSession, SessionState } from './sessionEntry';
import { formatScore } from '../../shared/numbers';
import { repeatClassificationText, repeatStateText } from '../repeat/labels';

const SEPARATOR = ' · ';
// Short enough that "Epoch 2 — <purpose>" and its description fit the side bar's default width.
const PURPOSE_LENGTH = 34;

/** "open", "paused", or "closed (complete)". */
export function stateText(state: SessionState, finalOutcome: Outcome | null): string {
  return state === 'closed' && finalOutcome ? `closed (${finalOutcome})` : state;
}

/** "3/10": records in the current epoch against its contract's iteration_limit. */
export function progressText(epoch: EpochView): string {
  return `${epoch.count}/${epoch.iterationLimit ?? '?'}`;
}

/** "pass 34.58" (the total rounded for reading), or undefined when no record was scored yet. */
export function verdictText(entry: ReadableSession): string | undefined {
  const { rubric_verdict: verdict, weighted_total: total } = entry.status;
  if (verdict === null) return undefined;
  return total === null ? verdict : `${verdict} ${formatScore(total)}`;
}

/**
 * Session description: "open · 3/10 · pass 0.82". After a re-open the count is the current
 * epoch's, said so: "open · epoch 2: 2/6 · …" (the session may hold more iterations in all).
 */
export function sessionDescription(entry: ReadableSession): string {
  const epoch = currentEpochView(entry.ledger, entry.held);
  const progress = epoch.n > 1 ? l10n.t('epoch {0}: {1}', epoch.n, progressText(epoch)) : progressText(epoch);
  const parts = [stateText(epoch.state, entry.ledger.final_outcome ?? null), progress];
  const verdict = verdictText(entry);
  if (verdict) parts.push(verdict);
  if (entry.legacy) parts.push(l10n.t('original format'));
  const repeat = repeatStateText(entry.ledger);
  if (repeat) parts.push(repeat);
  return parts.join(SEPARATOR);
}

const UNREADABLE = /^unreadable ledger: (?:the file )?(?:is )?/;

/**
 * An unreadable session's row, reason first, since the view cuts the row at its width:
 * "not valid JSON (Unexpected end of JSON input) — unreadable ledger".
 */
export function brokenDescription(problem: string): string {
  const prefix = UNREADABLE.exec(problem);
  return prefix ? l10n.t('{0} — unreadable ledger', problem.slice(prefix[0].length)) : problem;
}

/** "Epoch 2 — Cut the flaky tests" (purpose shortened to one line). */
export function epochLabel(epoch: EpochView): string {
  return l10n.t('Epoch {0} — {1}', epoch.n, oneLine(epoch.purpose, PURPOSE_LENGTH));
}

/** "revise · 4 iterations", or "open · 2/5" for the running epoch. */
export function epochDescription(epoch: EpochView): string {
  const count = epoch.count === 1 ? l10n.t('1 iteration') : l10n.t('{0} iterations', epoch.count);
  if (epoch.state === 'open') return [`open`, progressText(epoch)].join(SEPARATOR);
  if (epoch.state === 'paused') return [`paused`, progressText(epoch)].join(SEPARATOR);
  return [epoch.finalOutcome ?? '?', count].join(SEPARATOR);
}

/** "#4 escalate". */
export function iterationLabel(record: IterationRecord): string {
  return `#${record.n} ${record.outcome}`;
}

/** The actions, led by the stall when one promoted the outcome: "repeated-error (reported continue) · a, b". */
export function iterationDescription(record: IterationRecord): string {
  const classified = repeatClassificationText(record);
  const actions =
    (record.actions?.length ? record.actions.join(', ') : l10n.t('no actions')) +
    (classified ? `${SEPARATOR}${classified}` : '');
  if (!isStallPromoted(record)) return actions;
  return [l10n.t('{0} (reported {1})', record.stall!, record.reported_outcome!), actions].join(SEPARATOR);
}

/** True when a stall predicate recorded another outcome than the one reported. */
export function isStallPromoted(record: IterationRecord): boolean {
  return (
    Boolean(record.stall) &&
    record.reported_outcome !== undefined &&
    record.reported_outcome !== record.outcome
  );
}

/** The announcement after a promoted iteration: "reported continue, recorded escalate: repeated-error". */
export function promotionText(record: IterationRecord): string {
  return l10n.t('reported {0}, recorded {1}: {2}', record.reported_outcome!, record.outcome, record.stall!);
}

export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
