// The questions a repeat pauses on: the first and deeper stall pauses and
// a surfaced cycle. The text is what a person reads at the prompt, in the quick pick and in
// `.loop/repeat/<session>.md`; the options are the words `--answer` takes.
import type { RepeatRunFacts } from './run-facts';
import type { PendingQuestion, RepeatCounters, RepeatRecord } from './state';
import { summaryTag } from './summary';

export const FIRST_PAUSE_OPTIONS = ['retry', 'skip', 'abandon', 'change-scope'];
export const DEEPER_PAUSE_OPTIONS = ['skip', 'change-scope', 'abandon'];
export const CYCLE_OPTIONS = ['stay', 'forward-escape', 'abandon'];
export const FOLLOW_UP_OPTIONS = ['run', 'decline'];

export const OPTION_HELP: Record<string, string> = {
  retry: 'try the same recommendation again',
  skip: 'drop this recommendation and continue (the next run is told it was deferred)',
  abandon: 'stop the loop and produce a partial convergence summary',
  'change-scope': 'narrow or broaden the target (give --scope/--exclude globs or a new inner command)',
  stay: 'keep the current state: it is a fixed point, settle here',
  'forward-escape': 'direct the next run forward to the alternate state',
  run: 'run the follow-up now',
  decline: 'do not run the follow-up (the loop stays settled; run it yourself later)',
};

function blocker(facts: RepeatRunFacts): string {
  if (facts.exitCode === null) return 'tool error: the step was killed (timeout)';
  if (facts.exitCode !== 0)
    return `tool error: the step exited ${facts.exitCode}${facts.failure ? ` (${facts.failure})` : ''}`;
  return 'the step reports work, but no change landed (verification failure or rejection)';
}

export function stallQuestion(
  deeper: boolean,
  iteration: number,
  counters: RepeatCounters,
  facts: RepeatRunFacts,
  _earlier: readonly RepeatRecord[],
): PendingQuestion {
  const recommendation = summaryTag(facts.summary);
  const options = deeper ? DEEPER_PAUSE_OPTIONS : FIRST_PAUSE_OPTIONS;
  const head = deeper
    ? `Stalled deeply: ${counters.total_stalls} stalls so far across ${iteration} iterations, and retry has not been working.`
    : `Stalled after ${counters.consecutive_stalls} consecutive iterations. The step keeps reporting "${recommendation}", but no change lands.`;
  const advice = deeper
    ? 'Recommended: change-scope or abandon — repeating the same approach is unlikely to succeed.'
    : 'This is likely an orchestration-layer problem (verification, rejection, tooling), not the step itself.';
  const text = [
    head,
    `Recurring blocker: ${blocker(facts)}.`,
    advice,
    'How would you like to proceed?',
    ...options.map((o) => `- ${o} — ${OPTION_HELP[o]}`),
  ].join('\n');
  return {
    kind: deeper ? 'stall-deeper' : 'stall-first',
    iteration,
    options,
    recommendation: deeper
      ? 'change-scope or abandon'
      : `stalled ×${counters.consecutive_stalls}: retry, skip, abandon or change scope`,
    text,
  };
}

export function cycleQuestion(
  iteration: number,
  cycleWith: number,
  alternate: number,
  currentSummary: string,
  alternateSummary: string,
  why: string,
  escapeFailed: boolean,
): PendingQuestion {
  const head = escapeFailed
    ? `Cycled again at iteration ${iteration} after a forward escape: autonomous escape is not working.`
    : `Cycled at iteration ${iteration}: the state matches iteration ${cycleWith}, and both sides are substantive (${why}).`;
  const text = [
    head,
    `Current side (iterations ${cycleWith} and ${iteration}): ${currentSummary.trim() || '(no summary)'}`,
    `Alternate side (iteration ${alternate}): ${alternateSummary.trim() || '(no summary)'}`,
    'How would you like to proceed?',
    ...CYCLE_OPTIONS.map((o) => `- ${o} — ${OPTION_HELP[o]}`),
  ].join('\n');
  return {
    kind: 'cycle',
    iteration,
    options: CYCLE_OPTIONS,
    recommendation: escapeFailed
      ? 'escape failed: stay or abandon'
      : 'cycle: stay, forward-escape or abandon',
    text,
    cycle_with: cycleWith,
    alternate,
    escape_failed: escapeFailed,
  };
}

/**
 * After a Stay the state is a fixed point a person should look at before the follow-up (often a
 * release) runs. With nobody to ask, the question is kept in the ledger's `repeat` key and
 * answered later with `--answer run|decline`.
 */
export function followUpQuestion(iteration: number, command: string): PendingQuestion {
  const text = [
    `The loop settled at iteration ${iteration} by staying at a cycle's fixed point, not by a clean convergence.`,
    `Check the state, then decide whether to run the follow-up \`${command}\` now.`,
    'How would you like to proceed?',
    ...FOLLOW_UP_OPTIONS.map((o) => `- ${o} — ${OPTION_HELP[o]}`),
  ].join('\n');
  return {
    kind: 'follow-up',
    iteration,
    options: FOLLOW_UP_OPTIONS,
    recommendation: 'settled via a cycle (Stay): run the follow-up or decline it',
    text,
  };
}
