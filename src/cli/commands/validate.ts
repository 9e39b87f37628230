import { statSync } from 'node:fs';
import { validateOp } from '../../app/contract-operations';
import { isEngineeringMarkdownName } from '../../engine/engineering/check';
import type { CommandSpec, ParsedFlags } from '../args';
import type { CommandOutcome } from '../outcome';
import { visible } from '../output';
import type { CommandContext } from './context';
import { receiptValidation } from './run-validate';
import { STRICT_FLAG, validateEngineering } from './validate-engineering';

export const spec: CommandSpec = {
  name: 'validate',
  summary:
    'Check a contract (work-loop JSON, or loop-engineering *.loop.md / JSON with kind "loop-engineering") without opening a loop: every finding open would report. Exit 0 valid, 1 invalid, 2 unreadable.',
  flags: { strict: STRICT_FLAG },
  positional: 'FILE',
};

export function run(flags: ParsedFlags, ctx: CommandContext, file?: string): CommandOutcome {
  const path = file as string;
  // A receipt or a loop-engineering contract is recognised by reading the file first. A pipe or a
  // FIFO can be read only once, so only a regular file is looked at that way; anything else goes
  // straight to the work-loop validator, which reads it once, to its end.
  // A `.loop.md` name is a loop-engineering contract whatever the file is (its validator reads
  // it once and names a missing one).
  const regular = isRegularFile(path);
  if (regular) {
    // A harness receipt is recognised by its `schema` key and gets the receipt rules.
    const receipt = receiptValidation(path);
    if (receipt) return receipt;
  }
  if (regular || isEngineeringMarkdownName(path)) {
    const engineering = validateEngineering(flags, path);
    if (engineering) return engineering;
  }
  const outcome = validateOp(ctx.root, path);
  const p = outcome.payload;
  if (!p) return outcome;
  if (p.valid)
    return { ...outcome, human: `${visible(path)}: valid contract (${p.dimensions} rubric dimension(s))` };
  // Invalid: the findings go to stderr, prefixed with the file so an editor can jump to it.
  return { ...outcome, findings: outcome.findings.map((f) => ({ ...f, message: `${path}: ${f.message}` })) };
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false; // missing or unreadable: the contract validator says why, once
  }
}
