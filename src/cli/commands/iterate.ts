import { iterateByContractOp, iterateWithCheckpointOp } from '../../app/checkpoints/iterate-checkpoint';
import type { Outcome } from '../../app/ledger/operations';
import type { IterationRecord } from '../../engine/types';
import { UsageError } from '../usage-error';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { withHuman, type CommandOutcome } from '../outcome';
import { list, str, type CommandContext } from './context';
import { endingFrom, ESCALATE_FLAGS, outcomeFlag } from './ending';
import { ENGINEERING_ITERATE_FLAGS, engineeringFrom } from './iterate/engineering';
import { SPEND_FLAGS, spendFrom } from './iterate/spend';

const text = (help: string) => ({ type: 'string' as const, help, placeholder: 'TEXT' });
const many = (help: string, placeholder: string) => ({
  type: 'string' as const,
  multiple: true,
  help,
  placeholder,
});

export const spec: CommandSpec = {
  name: 'iterate',
  summary: 'Record one iteration with exactly one outcome. Refusals write nothing.',
  flags: {
    session: SESSION_FLAG,
    outcome: outcomeFlag('the outcome the iteration reports'),
    action: many('a stable action id completed by this iteration', 'ID'),
    error: text('failure text (its normalised signature feeds repeated-error)'),
    state: text('the resulting state (its hash feeds circular-state)'),
    'dependency-missing': {
      type: 'string',
      help: 'a declared dependency that was unreachable',
      placeholder: 'NAME',
    },
    measure: many('a rubric measurement (all dimensions or none)', 'DIM=NUMBER'),
    'files-changed': many('a file the iteration changed', 'PATH'),
    'command-run': many('a command the iteration ran', 'CMD'),
    'evidence-path': many('an evidence artifact (required with a verdict)', 'PATH'),
    'critic-verdict': { type: 'string', help: 'PASS FAIL REVISE REVERT ESCALATE', placeholder: 'VERDICT' },
    'critic-next': text("the critic's single best next improvement"),
    'critic-brief': { type: 'string', help: 'the pending brief id the verdict judged', placeholder: 'ID' },
    decision: { type: 'string', help: 'retain revert revise escalate', placeholder: 'DECISION' },
    ...ESCALATE_FLAGS,
    ...ENGINEERING_ITERATE_FLAGS,
    ...SPEND_FLAGS,
    checkpoint: {
      type: 'boolean',
      help: 'take a workspace checkpoint (git) and record it with the iteration',
    },
    'no-checkpoint': {
      type: 'boolean',
      help: 'take no checkpoint, even when the contract says checkpoint: true',
    },
  },
  stores: true,
};

export function run(flags: ParsedFlags, ctx: CommandContext): CommandOutcome | Promise<CommandOutcome> {
  const session = str(flags.session) as string;
  const spend = spendFrom(flags);
  if (flags.checkpoint === true && flags.noCheckpoint === true) {
    throw new UsageError('--checkpoint and --no-checkpoint contradict each other: give one');
  }
  const input = {
    ...endingFrom(flags),
    actions: list(flags.action),
    error: str(flags.error),
    state: str(flags.state),
    dependencyMissing: str(flags.dependencyMissing),
    measures: list(flags.measure),
    filesChanged: list(flags.filesChanged),
    commandsRun: list(flags.commandRun),
    evidencePaths: list(flags.evidencePath),
    criticVerdict: str(flags.criticVerdict),
    criticNext: str(flags.criticNext),
    criticBrief: str(flags.criticBrief),
    decision: str(flags.decision),
    ...engineeringFrom(flags),
    ...spend,
    now: ctx.now,
  };
  if (ctx.store) {
    // The record goes to the store; a checkpoint's commit and ref stay in this workspace's repository.
    const store = ctx.store;
    return import('../../app/checkpoints/on-store').then(
      ({ iterateByContractOnStore, iterateWithCheckpointOnStore }) =>
        (flags.checkpoint === true
          ? iterateWithCheckpointOnStore(store, ctx.root, session, input)
          : iterateByContractOnStore(store, ctx.root, session, input, flags.noCheckpoint === true)
        ).then((o) => human(session, o)),
    );
  }
  const outcome =
    flags.checkpoint === true
      ? iterateWithCheckpointOp(ctx.root, session, input)
      : iterateByContractOp(ctx.root, session, input, { optOut: flags.noCheckpoint === true });
  return human(session, outcome);
}

function human(session: string, outcome: Outcome<IterationRecord>): CommandOutcome {
  return withHuman(outcome, (r) => {
    const promoted = r.stall ? ` (reported ${r.reported_outcome}, stall ${r.stall})` : '';
    const scored = r.evaluation ? `; rubric ${r.evaluation.verdict} ${r.evaluation.weighted_total}` : '';
    const status = (r as { loop_status?: string | null }).loop_status;
    return `${session}: iteration ${r.n} recorded: ${r.outcome}${promoted}${scored}${status ? ` [${status}]` : ''}`;
  });
}
