import { listSessions } from '../../store';
import type { CommandSpec, ParsedFlags } from '../args';
import type { CommandOutcome } from '../outcome';
import type { CommandContext } from './context';

export const spec: CommandSpec = {
  name: 'list',
  summary:
    'Every session under the root (.loop/ledgers and the original .claude/.runtime/work-loop): status, epoch, iterations, last outcome.',
  flags: {},
};

export function run(_flags: ParsedFlags, ctx: CommandContext): CommandOutcome {
  const sessions = listSessions(ctx.root);
  const lines = sessions.map((s) =>
    s.error
      ? `${s.session}\tunreadable: ${s.error}`
      : `${s.session}\t${s.status}${s.final_outcome ? ` (${s.final_outcome})` : ''}\tepoch ${s.epoch}\t${s.iterations} iteration(s)\tlast ${s.last_outcome ?? '-'}${s.legacy ? '\t[original location]' : ''}`,
  );
  return {
    exitCode: 0,
    payload: { root: ctx.root, sessions },
    human: lines.length > 0 ? lines.join('\n') : `no ledgers under ${ctx.root}`,
  };
}
