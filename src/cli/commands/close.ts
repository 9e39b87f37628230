import { closeOp, type ClosePayload, type Outcome } from '../../app/ledger/operations';
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
  stores: true,
};

export function run(flags: ParsedFlags, ctx: CommandContext): CommandOutcome | Promise<CommandOutcome> {
  const session = str(flags.session) as string;
  const human = (outcome: Outcome<ClosePayload>) =>
    withHuman(outcome, (p) => `${session}: closed (${p.final_outcome})`);
  if (ctx.store) return ctx.store.close(session, endingFrom(flags)).then(human);
  return human(closeOp(ctx.root, session, endingFrom(flags)));
}
