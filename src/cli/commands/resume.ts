import { resumeOp } from '../../app/operations';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { withHuman, type CommandOutcome } from '../outcome';
import { str, type CommandContext } from './context';

export const spec: CommandSpec = {
  name: 'resume',
  summary:
    'Re-enter a paused loop (an open one is reported as it is): the contract, completed actions and next iteration.',
  flags: { session: SESSION_FLAG },
};

export function run(flags: ParsedFlags, ctx: CommandContext): CommandOutcome {
  const session = str(flags.session) as string;
  return withHuman(
    resumeOp(ctx.root, session),
    (p) =>
      `${session}: ${p.status}, resumed ${p.resumed} time(s), next iteration ${p.next_iteration}, ${p.completed_actions.length} completed action(s)`,
  );
}
