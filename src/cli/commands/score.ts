import { score } from '../../engine/score-command';
import { isRefusal } from '../../engine/refusal';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { loadLedger } from '../ledger-access';
import { fromRefusal, type CommandOutcome } from '../outcome';
import { list, str, type CommandContext } from './context';

export const spec: CommandSpec = {
  name: 'score',
  summary: 'Score one measurement per rubric dimension. Writes nothing; exit 6 when a hard gate is breached.',
  flags: {
    session: SESSION_FLAG,
    measure: { type: 'string', multiple: true, help: 'a measurement', placeholder: 'DIM=NUMBER' },
  },
};

export function run(flags: ParsedFlags, ctx: CommandContext): CommandOutcome {
  const ledger = loadLedger(ctx.root, str(flags.session) as string);
  const result = score(ledger, list(flags.measure));
  if (isRefusal(result)) return fromRefusal(result);
  const p = result.payload;
  const gates =
    p.hard_gate_failures.length > 0 ? `; hard gates breached: ${p.hard_gate_failures.join(', ')}` : '';
  return {
    exitCode: result.exitCode,
    payload: p,
    human: `verdict ${p.verdict}, weighted total ${p.weighted_total}${gates}`,
  };
}
