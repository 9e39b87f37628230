import { briefOp, type Outcome } from '../../app/ledger/operations';
import { BRIEF_ASKS, type BriefPacket, type DiffText } from '../../engine/brief';
import { INPUT_LIMIT, readTextFile, readUtf8File } from '../../app/read-input';
import { briefFromCheckpointsOp, type CheckpointPair } from '../../app/checkpoints/brief-between';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { withHuman, type CommandOutcome } from '../outcome';
import { UsageError } from '../usage-error';
import { str, type CommandContext } from './context';

export const spec: CommandSpec = {
  name: 'brief',
  summary:
    'Assemble the critic packet from a diff and verification output, and arm it as the single pending brief.',
  flags: {
    session: SESSION_FLAG,
    'diff-file': {
      type: 'string',
      help: 'the change under review (or give --from-checkpoint and --to-checkpoint)',
      placeholder: 'PATH',
    },
    'from-checkpoint': {
      type: 'string',
      integer: true,
      help: "instead of --diff-file: the change since this iteration's checkpoint",
      placeholder: 'N',
    },
    'to-checkpoint': {
      type: 'string',
      integer: true,
      help: "with --from-checkpoint: up to this iteration's checkpoint",
      placeholder: 'M',
    },
    'verification-file': { type: 'string', required: true, help: 'verification output', placeholder: 'PATH' },
    'change-scope': {
      type: 'string',
      help: 'git --stat or --name-only transcript of the change',
      placeholder: 'PATH',
    },
  },
  stores: true,
};

export function run(flags: ParsedFlags, ctx: CommandContext): CommandOutcome | Promise<CommandOutcome> {
  const session = str(flags.session) as string;
  const scopePath = str(flags.changeScope);
  const pair = checkpointPair(flags, scopePath);
  if (pair !== null) {
    const verification = readTextFile(str(flags.verificationFile) as string, INPUT_LIMIT);
    if (ctx.store) {
      const store = ctx.store;
      return import('../../app/checkpoints/brief-between')
        .then((m) => m.briefFromCheckpointsOnStore(store, ctx.root, session, pair, verification))
        .then((o) => human(session, o));
    }
    return human(session, briefFromCheckpointsOp(ctx.root, session, pair, verification));
  }
  // Read in the reference's order; the engine reports only the first unreadable or empty one.
  // The diff stays bytes: a 20 MiB diff is never decoded into one string (engine/brief/utf8-diff.ts).
  // The inputs are local files on either store; on PostgreSQL the packet is kept in the store too.
  const input = {
    diff: readUtf8File(str(flags.diffFile) as string, INPUT_LIMIT),
    verification: readTextFile(str(flags.verificationFile) as string, INPUT_LIMIT),
    changeScope: scopePath === null ? undefined : readTextFile(scopePath, INPUT_LIMIT),
  };
  if (ctx.store) return ctx.store.brief(session, input).then((o) => human(session, o));
  return human(session, briefOp(ctx.root, session, input));
}

/**
 * The two checkpoints to take the change from, or null for --diff-file. Exactly one source of the
 * change: both at once would leave one of them silently unused.
 */
function checkpointPair(flags: ParsedFlags, scopePath: string | null): CheckpointPair | null {
  const from = typeof flags.fromCheckpoint === 'number' ? flags.fromCheckpoint : undefined;
  const to = typeof flags.toCheckpoint === 'number' ? flags.toCheckpoint : undefined;
  const diffFile = str(flags.diffFile);
  if (from === undefined && to === undefined) {
    if (diffFile === null)
      throw new UsageError('brief: give --diff-file PATH, or --from-checkpoint N and --to-checkpoint M');
    return null;
  }
  if (diffFile !== null)
    throw new UsageError(
      'brief: --diff-file and --from-checkpoint/--to-checkpoint are two sources of the change; give one',
    );
  if (from === undefined || to === undefined)
    throw new UsageError('brief: --from-checkpoint and --to-checkpoint go together');
  if (scopePath !== null)
    throw new UsageError(
      "brief: --change-scope and --from-checkpoint/--to-checkpoint: the change scope is the checkpoints' own --stat",
    );
  return { from, to };
}

function human(session: string, outcome: Outcome<BriefPacket<DiffText>>): CommandOutcome {
  return withHuman(outcome, (p) =>
    [
      `${session}: brief ${p.brief_id} pending (scope ${p.scope.provenance}, ${p.scope.diff_paths.length} file(s) in the diff)`,
      // the packet's own line about Loop Ledger's writes left out, when there is one
      ...p.asks.slice(BRIEF_ASKS.length),
    ].join('\n'),
  );
}
