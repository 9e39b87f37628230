// What a CLI command hands back to main: the operation's outcome plus the human line.
import type { Outcome } from '../app/outcome';
import type { RepeatExitCode } from '../app/repeat/types';

export interface CommandOutcome extends Omit<Outcome, 'exitCode'> {
  /** The shared table, plus repeat's own codes (`resume` continues an unfinished repeat). */
  exitCode: RepeatExitCode;
  /** Printed without --json (only when the operation produced a payload). */
  human?: string;
}

/** Adds the human line to an operation's outcome when it has a payload. */
export function withHuman<P>(outcome: Outcome<P>, describe: (payload: P) => string): CommandOutcome {
  return outcome.payload === undefined ? outcome : { ...outcome, human: describe(outcome.payload) };
}
