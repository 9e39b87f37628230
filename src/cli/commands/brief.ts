import { brief } from '../../engine/brief';
import { isRefusal } from '../../engine/refusal';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { requireLedger, updateLedger } from '../ledger-access';
import { fromRefusal, type CommandOutcome } from '../outcome';
import { INPUT_LIMIT, readTextFile } from '../read-input';
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
};

export function run(flags: ParsedFlags, ctx: CommandContext): CommandOutcome {
  const session = str(flags.session) as string;
  const scopePath = str(flags.changeScope);
  return updateLedger(ctx.root, session, (read, location) => {
    const ledger = requireLedger(read, location, session);
    // Read in the reference's order; the engine reports only the first unreadable or empty one.
    const result = brief(ledger, {
      diff: readTextFile(str(flags.diffFile) as string, INPUT_LIMIT),
      verification: readTextFile(str(flags.verificationFile) as string, INPUT_LIMIT),
      changeScope: scopePath === null ? undefined : readTextFile(scopePath, INPUT_LIMIT),
    });
    if (isRefusal(result)) return { result: fromRefusal(result) };
    const p = result.payload;
    return {
      write: result.ledger,
      result: {
        exitCode: 0,
        payload: p,
        human: `${session}: brief ${p.brief_id} pending (scope ${p.scope.provenance}, ${p.scope.diff_paths.length} file(s) in the diff)`,
      },
    };
  });
}
