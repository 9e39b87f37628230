import { validateFileOp } from '../../app/contract/validate-file';
import type { CommandSpec, ParsedFlags } from '../args';
import type { CommandOutcome } from '../outcome';
import { visible } from '../output';
import type { CommandContext } from './context';
import { receiptOutcome } from './run/validate-receipt';
import { engineeringCommandOutcome, STRICT_FLAG } from './validate/engineering';

export const spec: CommandSpec = {
  name: 'validate',
  summary:
    'Check a contract (work-loop JSON, or loop-engineering *.loop.md / JSON with kind "loop-engineering") or a harness receipt without opening a loop: every finding open would report. Exit 0 valid, 1 invalid, 2 unreadable.',
  flags: { strict: STRICT_FLAG },
  positional: 'FILE',
  // Reads no ledger: a selected store is no reason to refuse.
  stores: true,
};

export function run(flags: ParsedFlags, ctx: CommandContext, file?: string): CommandOutcome {
  const path = file as string;
  // One read of FILE (a pipe or a FIFO can be read only once), then the validator its text calls for.
  const validated = validateFileOp(ctx.root, path, flags.strict === true);
  if (validated.kind === 'receipt') return receiptOutcome(validated.data, validated.payload);
  if (validated.kind === 'engineering') return engineeringCommandOutcome(validated.outcome);
  const outcome = validated.outcome;
  const p = outcome.payload;
  if (!p) return outcome;
  if (p.valid)
    return { ...outcome, human: `${visible(path)}: valid contract (${p.dimensions} rubric dimension(s))` };
  // Invalid: the findings go to stderr, prefixed with the file so an editor can jump to it.
  return { ...outcome, findings: outcome.findings.map((f) => ({ ...f, message: `${path}: ${f.message}` })) };
}
