import { listOp, type Outcome } from '../../app/ledger/operations';
import type { SessionSummary } from '../../store';
import type { CommandSpec, ParsedFlags } from '../args';
import { withHuman, type CommandOutcome } from '../outcome';
import { visible } from '../output';
import { spendWords } from '../../shared/spend-words';
import type { CommandContext } from './context';

export const spec: CommandSpec = {
  name: 'list',
  summary:
    'Every session under the root (.loop/ledgers and the original .claude/.runtime/work-loop): status, epoch, iterations, last outcome.',
  flags: {},
  stores: true,
};

export function run(_flags: ParsedFlags, ctx: CommandContext): CommandOutcome | Promise<CommandOutcome> {
  if (ctx.store) return ctx.store.list().then(human);
  return human(listOp(ctx.root));
}

function human(outcome: Outcome<{ root: string; sessions: SessionSummary[] }>): CommandOutcome {
  return withHuman(outcome, ({ root, sessions }) => {
    if (sessions.length === 0) return `no ledgers under ${visible(root)}`;
    return sessions
      .map((s) =>
        s.error
          ? `${s.session}\tunreadable: ${visible(s.error)}`
          : `${s.session}\t${s.status}${s.final_outcome ? ` (${s.final_outcome})` : ''}\tepoch ${s.epoch}\t${s.iterations} iteration(s)\tlast ${s.last_outcome ?? '-'}${spendWords(s.spend) ? `\t${spendWords(s.spend)}` : ''}${s.legacy ? '\t[original location]' : ''}`,
      )
      .join('\n');
  });
}
