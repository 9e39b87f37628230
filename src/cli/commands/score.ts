import { scoreOp, type Outcome } from '../../app/ledger/operations';
import type { Evaluation } from '../../engine/types';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { withHuman, type CommandOutcome } from '../outcome';
import { list, str, type CommandContext } from './context';

export const spec: CommandSpec = {
  name: 'score',
  summary: 'Score one measurement per rubric dimension. Writes nothing; exit 6 when a hard gate is breached.',
  flags: {
    session: SESSION_FLAG,
    measure: { type: 'string', multiple: true, help: 'a measurement', placeholder: 'DIM=NUMBER' },
  },
  stores: true,
};

export function run(flags: ParsedFlags, ctx: CommandContext): CommandOutcome | Promise<CommandOutcome> {
  const session = str(flags.session) as string;
  if (ctx.store) return ctx.store.score(session, list(flags.measure)).then(human);
  return human(scoreOp(ctx.root, session, list(flags.measure)));
}

function human(outcome: Outcome<Evaluation>): CommandOutcome {
  return withHuman(outcome, (p) => {
    const gates =
      p.hard_gate_failures.length > 0 ? `; hard gates breached: ${p.hard_gate_failures.join(', ')}` : '';
    return `verdict ${p.verdict}, weighted total ${p.weighted_total}${gates}`;
  });
}
