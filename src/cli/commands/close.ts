import { closeOp } from '../../app/operations';
import { OUTCOMES, type Outcome } from '../../engine/types';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { withHuman, type CommandOutcome } from '../outcome';
import { str, type CommandContext } from './context';

export const spec: CommandSpec = {
  name: 'close',
  summary: 'End an open loop with a terminal outcome, without recording an iteration.',
  flags: {
    session: SESSION_FLAG,
    outcome: {
      type: 'string',
      required: true,
      choices: OUTCOMES,
      help: 'how the loop ended',
      placeholder: 'OUTCOME',
    },
    blocker: { type: 'string', help: 'what stopped the loop (escalate)', placeholder: 'TEXT' },
    evidence: { type: 'string', help: 'what shows the blocker (escalate)', placeholder: 'TEXT' },
    'recommended-next': {
      type: 'string',
      help: 'what the next session should do (escalate)',
      placeholder: 'TEXT',
    },
    note: { type: 'string', help: 'free text', placeholder: 'TEXT' },
  },
};

export function run(flags: ParsedFlags, ctx: CommandContext): CommandOutcome {
  const session = str(flags.session) as string;
  const outcome = closeOp(ctx.root, session, {
    outcome: str(flags.outcome) as Outcome,
    blocker: str(flags.blocker),
    evidence: str(flags.evidence),
    recommendedNext: str(flags.recommendedNext),
    note: str(flags.note),
  });
  return withHuman(outcome, (p) => `${session}: closed (${p.final_outcome})`);
}
