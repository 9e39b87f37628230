import { openOp } from '../../app/contract/operations';
import type { Outcome } from '../../app/outcome';
import type { OpenPayload } from '../../engine/open';
import { STALL_THRESHOLD_FIELD } from '../../engine/open-settings';
import type { Finding } from '../../engine/types';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { withHuman, type CommandOutcome } from '../outcome';
import { UsageError } from '../usage-error';
import { list, str, type CommandContext } from './context';

export const spec: CommandSpec = {
  name: 'open',
  summary: 'Open a loop under a contract; a closed ledger is re-opened as a new epoch, --force discards it.',
  flags: {
    session: SESSION_FLAG,
    contract: {
      type: 'string',
      help: 'the work-loop contract file (JSON); required unless --engineering is given',
      placeholder: 'PATH',
    },
    engineering: {
      type: 'string',
      help: 'a loop-engineering contract (*.loop.md or JSON): validated --strict, its caps enforced',
      placeholder: 'PATH',
    },
    'stall-threshold': {
      type: 'string',
      integer: true,
      help: 'repeated-error threshold (default 3)',
      placeholder: 'INT',
    },
    force: {
      type: 'boolean',
      help: 'discard the existing ledger (a corrupt one is kept as .corrupt-<time>)',
    },
    'baseline-evidence': {
      type: 'string',
      multiple: true,
      help: 'a transcript that shows a declared baseline',
      placeholder: 'DIM=PATH',
    },
  },
  stores: true,
};

export function run(flags: ParsedFlags, ctx: CommandContext): CommandOutcome | Promise<CommandOutcome> {
  const session = str(flags.session) as string;
  if (str(flags.contract) === null && str(flags.engineering) === null) {
    throw new UsageError(
      'the flag --contract is required (or --engineering with a loop-engineering contract)',
    );
  }
  const input = {
    contractPath: str(flags.contract),
    engineeringPath: str(flags.engineering),
    stallThreshold: typeof flags.stallThreshold === 'number' ? flags.stallThreshold : undefined,
    force: flags.force === true,
    baselineEvidence: list(flags.baselineEvidence),
    now: ctx.now,
  };
  if (ctx.store) return ctx.store.open(session, input).then((o) => human(session, o));
  return human(session, openOp(ctx.root, session, input));
}

function human(session: string, outcome: Outcome<OpenPayload>): CommandOutcome {
  return withHuman(
    { ...outcome, findings: outcome.findings.map(inFlagWords) },
    (p) => `${session}: open, epoch ${p.epoch}, next iteration ${p.next_iteration}`,
  );
}

/** The engine names the field; the CLI speaks in flags. */
function inFlagWords(finding: Finding): Finding {
  if (finding.path?.[0] !== STALL_THRESHOLD_FIELD) return finding;
  return { ...finding, message: `--stall-threshold: ${finding.message}` };
}
