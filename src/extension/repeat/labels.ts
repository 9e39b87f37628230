// The repeat's words in the Sessions tree: the session's loop state and each iteration's
// classification. Pure (no vscode), like sessions/labels.ts which calls it.
import { readRepeatState } from '../../engine/repeat/ledger';
import { isRefusal } from '../../engine/refusal';
import type { IterationRecord, Ledger } from '../../engine/types';

/** "repeat: continuing", "repeat: stalled ×2", "repeat: cycled (stay)", "repeat: settled", … */
export function repeatStateText(ledger: Ledger): string | undefined {
  const state = readRepeatState(ledger);
  if (state === null) return undefined;
  if (isRefusal(state)) return 'repeat: unreadable state';
  if (state.status === 'paused') {
    const waiting = state.pending?.kind === 'cycle' ? 'cycled' : `stalled ×${state.consecutive_stalls}`;
    return `repeat: ${waiting}, waiting for an answer`;
  }
  if (state.status === 'running') {
    return state.consecutive_stalls > 0
      ? `repeat: stalled ×${state.consecutive_stalls}`
      : 'repeat: continuing';
  }
  switch (state.exit_reason) {
    case 'settled':
    case 'forward-escape-resolved':
      return 'repeat: settled';
    case 'settled-via-cycle':
      return state.pending
        ? 'repeat: cycled (stay), follow-up waiting for an answer'
        : 'repeat: cycled (stay)';
    default:
      return `repeat: partial (${state.exit_reason ?? 'ended'})`;
  }
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
