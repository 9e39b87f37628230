import type { BaselineEvidence } from '../../engine/baseline-evidence';
import { open, openPrecheck } from '../../engine/open';
import { isRefusal } from '../../engine/refusal';
import type { Ledger } from '../../engine/types';
import { keepCorruptCopy } from '../../store';
import { SESSION_FLAG, type CommandSpec, type ParsedFlags } from '../args';
import { requireLedger, updateLedger } from '../ledger-access';
import { fromRefusal, type CommandOutcome } from '../outcome';
import { INPUT_LIMIT, readTextFile } from '../read-input';
import { programResolver } from '../resolve-program';
import { readContractFile } from './contract-file';
import { list, str, type CommandContext } from './context';

export const spec: CommandSpec = {
  name: 'open',
  summary: 'Open a loop under a contract; a closed ledger is re-opened as a new epoch, --force discards it.',
  flags: {
    session: SESSION_FLAG,
    contract: { type: 'string', required: true, help: 'the contract file (JSON)', placeholder: 'PATH' },
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
};

function readEvidence(specs: string[]): BaselineEvidence[] {
  return specs.map((spec) => {
    const eq = spec.indexOf('=');
    if (eq <= 0 || eq === spec.length - 1) return { spec };
    return { spec, transcript: readTextFile(spec.slice(eq + 1), INPUT_LIMIT) };
  });
}

export function run(flags: ParsedFlags, ctx: CommandContext): CommandOutcome {
  const session = str(flags.session) as string;
  const force = flags.force === true;
  return updateLedger(ctx.root, session, (read, location) => {
    let existing: Ledger | null = null;
    const discardCorrupt = read.kind === 'corrupt' && force;
    if (read.kind !== 'absent' && !discardCorrupt) existing = requireLedger(read, location, session);
    // The open-ledger check comes before the contract is read at all.
    const pre = openPrecheck(existing, force);
    if (pre) return { result: fromRefusal(pre) };
    const result = open({
      session,
      existing,
      contract: readContractFile(str(flags.contract) as string),
      stallThreshold: typeof flags.stallThreshold === 'number' ? flags.stallThreshold : 3,
      force,
      baselineEvidence: readEvidence(list(flags.baselineEvidence)),
      now: ctx.now,
      resolveProgram: programResolver(ctx.root),
    });
    if (isRefusal(result)) return { result: fromRefusal(result) };
    // Only now, with the new ledger decided, is the unreadable one moved aside: never lost.
    const keptCopy = discardCorrupt ? keepCorruptCopy(location.readPath, ctx.now) : null;
    const p = result.payload;
    const kept = keptCopy ? `; the corrupt ledger was kept at ${keptCopy}` : '';
    return {
      write: result.ledger,
      result: {
        exitCode: 0,
        payload: p,
        human: `${session}: open, epoch ${p.epoch}, next iteration ${p.next_iteration}${kept}`,
        findings: keptCopy ? [`${location.readPath}: corrupt ledger kept as ${keptCopy}`] : undefined,
      },
    };
  });
}
