import { statusOp, type Outcome } from '../../app/ledger/operations';
import type { StatusPayload } from '../../engine/status';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { withHuman, type CommandOutcome } from '../outcome';
import { str, type CommandContext } from './context';
import { budgetWords } from '../../shared/budget-words';
import { limitWords, spendWords } from '../../shared/spend-words';

export const spec: CommandSpec = {
  name: 'status',
  summary:
    'Report a loop: counts, stalls, and the quality of its newest judged iteration. Exit 4 when it has no iterations.',
  flags: { session: SESSION_FLAG },
  stores: true,
};

export function run(flags: ParsedFlags, ctx: CommandContext): CommandOutcome | Promise<CommandOutcome> {
  const session = str(flags.session) as string;
  if (ctx.store) return ctx.store.status(session).then((o) => human(session, o));
  return human(session, statusOp(ctx.root, session));
}

function human(session: string, outcome: Outcome<StatusPayload>): CommandOutcome {
  return withHuman(outcome, (p) => {
    const quality =
      p.quality_from === null
        ? 'not judged yet'
        : `judged at #${p.quality_from}: rubric ${p.rubric_verdict ?? '-'} ${p.weighted_total ?? ''}`.trim() +
          `, critic ${p.critic_verdict ?? '-'}, decision ${p.decision ?? '-'}`;
    const closed = p.final_outcome ? ` (${p.final_outcome})` : '';
    const last = p.last_outcome ? `, last ${p.last_outcome}` : '';
    const spent = [spendWords(p.spend), limitWords(p.limits)].filter((w) => w !== '').join('; ');
    return `${session}: ${p.status}${closed}, epoch ${p.epoch}, ${p.iterations} iteration(s)${last}; ${quality}${budgetWords(p.budget)}${spent ? `\nspent: ${spent}` : ''}`;
  });
}
