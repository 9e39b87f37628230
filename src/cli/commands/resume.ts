import { isRefusal } from '../../engine/refusal';
import { resume } from '../../engine/resume';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { requireLedger, updateLedger } from '../ledger-access';
import { fromRefusal, type CommandOutcome } from '../outcome';
import { str, type CommandContext } from './context';

export const spec: CommandSpec = {
  name: 'resume',
  summary:
    'Re-enter a paused loop (an open one is reported as it is): the contract, completed actions and next iteration.',
  flags: { session: SESSION_FLAG },
};

export function run(flags: ParsedFlags, ctx: CommandContext): CommandOutcome {
  const session = str(flags.session) as string;
  return updateLedger(ctx.root, session, (read, location) => {
    const result = resume(requireLedger(read, location, session));
    if (isRefusal(result)) return { result: fromRefusal(result) };
    const p = result.payload;
    return {
      write: result.changed ? result.ledger : undefined,
      result: {
        exitCode: 0,
        payload: p,
        human: `${session}: ${p.status}, resumed ${p.resumed} time(s), next iteration ${p.next_iteration}, ${p.completed_actions.length} completed action(s)`,
      },
    };
  });
}
