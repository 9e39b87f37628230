// What a CLI command hands back to main: the operation's outcome plus the human line.
import type { Outcome } from '../app/outcome';

export interface CommandOutcome extends Outcome {
  /** Printed without --json (only when the operation produced a payload). */
  human?: string;
}

/** Adds the human line to an operation's outcome when it has a payload. */
export function withHuman<P>(outcome: Outcome<P>, describe: (payload: P) => string): CommandOutcome {
  return outcome.payload === undefined ? outcome : { ...outcome, human: describe(outcome.payload) };
}
