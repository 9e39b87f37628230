import { briefOp, type Outcome } from '../../app/ledger/operations';
import { BRIEF_ASKS, type BriefPacket, type DiffText } from '../../engine/brief';
import { INPUT_LIMIT, readTextFile, readUtf8File } from '../../app/read-input';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { withHuman, type CommandOutcome } from '../outcome';
import { str, type CommandContext } from './context';

export const spec: CommandSpec = {
  name: 'brief',
  summary:
    'Assemble the critic packet from a diff and verification output, and arm it as the single pending brief.',
  flags: {
    session: SESSION_FLAG,
    'diff-file': { type: 'string', required: true, help: 'the change under review', placeholder: 'PATH' },
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

function human(session: string, outcome: Outcome<BriefPacket<DiffText>>): CommandOutcome {
  return withHuman(outcome, (p) =>
    [
      `${session}: brief ${p.brief_id} pending (scope ${p.scope.provenance}, ${p.scope.diff_paths.length} file(s) in the diff)`,
      // the packet's own line about Loop Ledger's writes left out, when there is one
      ...p.asks.slice(BRIEF_ASKS.length),
    ].join('\n'),
  );
}
