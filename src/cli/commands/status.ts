import { status } from '../../engine/status';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { loadLedger } from '../ledger-access';
import type { CommandOutcome } from '../outcome';
import { str, type CommandContext } from './context';

export const spec: CommandSpec = {
  name: 'status',
  summary:
    'Report a loop: counts, stalls, and the quality of its newest judged iteration. Exit 4 when it has no iterations.',
  flags: { session: SESSION_FLAG },
};

export function run(flags: ParsedFlags, ctx: CommandContext): CommandOutcome {
  const session = str(flags.session) as string;
  const { payload, exitCode } = status(loadLedger(ctx.root, session));
  const quality =
    payload.quality_from === null
      ? 'not judged yet'
      : `judged at #${payload.quality_from}: rubric ${payload.rubric_verdict ?? '-'} ${payload.weighted_total ?? ''}`.trim() +
        `, critic ${payload.critic_verdict ?? '-'}, decision ${payload.decision ?? '-'}`;
  const closed = payload.final_outcome ? ` (${payload.final_outcome})` : '';
  const last = payload.last_outcome ? `, last ${payload.last_outcome}` : '';
  return {
    exitCode,
    payload,
    human: `${session}: ${payload.status}${closed}, epoch ${payload.epoch}, ${payload.iterations} iteration(s)${last}; ${quality}`,
  };
}
