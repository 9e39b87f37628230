// Termination normalisation: a provider's raw stop signal becomes one
// of seven classes, and the class decides what the iteration may record. Fluent prose or a bare
// "stop" never completes a loop on its own: `complete` still needs a passing verifier.
import type { Outcome } from '../types';

export const TERMINATION_REASONS = [
  'complete',
  'tool_request',
  'checkpoint',
  'truncation',
  'refusal',
  'error',
  'unknown',
] as const;
export type TerminationReason = (typeof TERMINATION_REASONS)[number];

/** Raw signals of the common providers, by class; the class names themselves map to themselves. */
const RAW: Record<string, TerminationReason> = {
  end_turn: 'complete',
  stop: 'complete',
  stop_sequence: 'complete',
  tool_use: 'tool_request',
  tool_calls: 'tool_request',
  function_call: 'tool_request',
  max_tokens: 'truncation',
  length: 'truncation',
  model_context_window_exceeded: 'truncation',
  pause_turn: 'checkpoint',
  content_filter: 'refusal',
  safety: 'refusal',
  recitation: 'refusal',
  ...Object.fromEntries(TERMINATION_REASONS.map((r) => [r, r])),
};

/** Any raw signal → its class; anything unmapped is `unknown` (and escalates). */
export function normaliseTermination(raw: string): TerminationReason {
  const key = raw
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return Object.hasOwn(RAW, key) ? (RAW[key] as TerminationReason) : 'unknown';
}

/**
 * The outcome a termination class forces, if any: a cut-off turn checkpoints (`pause`, resume
 * later), a refusal, error or unknown signal escalates. Others keep the caller's outcome.
 */
export function forcedOutcome(reason: TerminationReason): Outcome | null {
  if (reason === 'truncation' || reason === 'checkpoint') return 'pause';
  if (reason === 'refusal' || reason === 'error' || reason === 'unknown') return 'escalate';
  return null;
}

/** What an escalate forced by the signal records when the caller gave no escalate fields. */
export function terminationEscalation(reason: TerminationReason, raw: string) {
  return {
    blocker: `The model's turn ended with ${reason} (raw signal ${JSON.stringify(raw)}), which no loop may read as progress.`,
    evidence: `termination signal ${JSON.stringify(raw)} normalised to ${reason}`,
    recommended_next: 'Read the transcript of this turn, resolve the cause, then resume or re-open the loop.',
  };
}
