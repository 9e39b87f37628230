// The flags that say how a loop ends, shared by `iterate` (a terminal outcome closes the loop)
// and `close`: the outcome word, the three escalate fields and the note.
import { OUTCOMES, type Outcome } from '../../engine/types';
import type { FlagSpec, ParsedFlags } from '../args';
import { str } from './context';

const text = (help: string): FlagSpec => ({ type: 'string', help, placeholder: 'TEXT' });

export function outcomeFlag(help: string): FlagSpec {
  return { type: 'string', required: true, choices: OUTCOMES, help, placeholder: 'OUTCOME' };
}

export const ESCALATE_FLAGS: Record<string, FlagSpec> = {
  blocker: text('what stopped the loop (escalate)'),
  evidence: text('what shows the blocker (escalate)'),
  'recommended-next': text('what the next session should do (escalate)'),
  note: text('free text'),
};

/** The parsed ending flags, named as the operations take them. */
export function endingFrom(flags: ParsedFlags) {
  return {
    outcome: str(flags.outcome) as Outcome,
    blocker: str(flags.blocker),
    evidence: str(flags.evidence),
    recommendedNext: str(flags.recommendedNext),
    note: str(flags.note),
  };
}
