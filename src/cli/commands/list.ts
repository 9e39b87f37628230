import { listOp } from '../../app/operations';
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
};

export function run(_flags: ParsedFlags, ctx: CommandContext): CommandOutcome {
  return withHuman(listOp(ctx.root), ({ root, sessions }) => {
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
