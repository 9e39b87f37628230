import { closeOp } from '../../app/operations';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { withHuman, type CommandOutcome } from '../outcome';
import { str, type CommandContext } from './context';
import { endingFrom, ESCALATE_FLAGS, outcomeFlag } from './ending';

export const spec: CommandSpec = {
  name: 'close',
  summary: 'End an open loop with a terminal outcome, without recording an iteration.',
  flags: {
    session: SESSION_FLAG,
    outcome: outcomeFlag('how the loop ended'),
    ...ESCALATE_FLAGS,
  },
};

export function run(flags: ParsedFlags, ctx: CommandContext): CommandOutcome {
  const session = str(flags.session) as string;
  const outcome = closeOp(ctx.root, session, endingFrom(flags));
  return withHuman(outcome, (p) => `${session}: closed (${p.final_outcome})`);
}
