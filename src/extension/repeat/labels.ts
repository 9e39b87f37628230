// The repeat's words in the Sessions tree: the session's loop state and each iteration's
// classification. Pure (no vscode), like sessions/labels.ts which calls it.
import * as l10n from '@vscode/l10n';
import { readRepeatState } from '../../engine/repeat/ledger';
import { isRefusal } from '../../engine/refusal';
import type { IterationRecord, Ledger } from '../../engine/types';

/** "repeat: continuing", "repeat: stalled ×2", "repeat: cycled (stay)", "repeat: settled", … */
export function repeatStateText(ledger: Ledger): string | undefined {
  const state = readRepeatState(ledger);
  if (state === null) return undefined;
  if (isRefusal(state)) return l10n.t('repeat: unreadable state');
  if (state.status === 'paused') {
    return state.pending?.kind === 'cycle'
      ? l10n.t('repeat: cycled, waiting for an answer')
      : l10n.t('repeat: stalled ×{0}, waiting for an answer', state.consecutive_stalls);
  }
  if (state.status === 'running') {
    return state.consecutive_stalls > 0
      ? l10n.t('repeat: stalled ×{0}', state.consecutive_stalls)
      : l10n.t('repeat: continuing');
  }
  switch (state.exit_reason) {
    case 'settled':
    case 'forward-escape-resolved':
      return l10n.t('repeat: settled');
    case 'settled-via-cycle':
      return state.pending
        ? l10n.t('repeat: cycled (stay), follow-up waiting for an answer')
        : l10n.t('repeat: cycled (stay)');
    default:
      return l10n.t('repeat: partial ({0})', state.exit_reason ?? l10n.t('ended'));
  }
}

/**
 * Does the session's repeat wait for an answer now (its stall or cycle question is open)? The
 * ledger's own epoch is still open then, so without this the session reads as running.
 */
export function repeatWaitsForAnswer(ledger: Ledger): boolean {
  const state = readRepeatState(ledger);
  return state !== null && !isRefusal(state) && state.status === 'paused' && state.pending !== null;
}

/** An iteration's classification, when it is a repeat run: "settled", "cycled → stay". */
export function repeatClassificationText(record: IterationRecord): string | undefined {
  const repeat = (record as IterationRecord & { repeat?: { classification?: unknown; resolution?: unknown } })
    .repeat;
  if (!repeat || typeof repeat.classification !== 'string') return undefined;
  return typeof repeat.resolution === 'string'
    ? `${repeat.classification} → ${repeat.resolution}`
    : repeat.classification;
}
