// The follow-up after the loop ends: run after a clean settle; never after a
// partial one; after a Stay only once a person confirms. With nobody to ask, that question is
// kept in the ledger's `repeat` key (status finished, `pending` the follow-up question) until
// `repeat --answer run|decline` or `resume --answer …` answers it.
import { followUpQuestion } from './questions';
import { EXIT_REASONS, type PendingQuestion, type RepeatState } from './state';

export type FollowUpPlan =
  | { kind: 'none' }
  | { kind: 'skip'; reason: string }
  | { kind: 'run' }
  | { kind: 'confirm'; question: PendingQuestion };

export const FOLLOW_UP_WAITING =
  'waiting for an answer (run or decline): the loop settled via a cycle (Stay)';
export const FOLLOW_UP_DECLINED =
  'declined: settled via a cycle (Stay); run the follow-up yourself once the state is checked';

/** What to do with the follow-up of a finished repeat. */
export function followUpPlan(state: RepeatState): FollowUpPlan {
  if (state.pending?.kind === 'follow-up') return { kind: 'confirm', question: state.pending };
  const command = state.follow_up;
  if (command === null || state.exit_reason === null || state.status !== 'finished') return { kind: 'none' };
  // Decided by an earlier call (run, declined or skipped): never a second time.
  if (state.follow_up_result) return { kind: 'none' };
  if (!EXIT_REASONS[state.exit_reason].clean)
    return { kind: 'skip', reason: 'partial convergence: the follow-up is not run' };
  if (state.exit_reason === 'settled-via-cycle')
    return { kind: 'confirm', question: followUpQuestion(state.iteration, command) };
  return { kind: 'run' };
}

/** The question stays open: kept on the state so a later answer (or the VS Code pick) sees it. */
export function keepFollowUpQuestion(state: RepeatState, question: PendingQuestion): RepeatState {
  return { ...state, pending: question };
}

/** The question answered (or not needed): nothing pending any more. */
export function followUpAnswered(state: RepeatState, option: 'run' | 'decline'): RepeatState {
  return {
    ...state,
    pending: null,
    events: [...state.events, `follow-up: user chose ${option}`],
  };
}
