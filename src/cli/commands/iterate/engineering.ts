// The `iterate` flags loop-engineering adds: spent budget, the NO_OP variant and the
// provider's raw termination signal. Kept here so ../iterate.ts only spreads them in.
import type { FlagSpec, ParsedFlags } from '../../args';
import { list, str } from '../context';

const count = (help: string): FlagSpec => ({ type: 'string', help, placeholder: 'N' });

export const ENGINEERING_ITERATE_FLAGS: Record<string, FlagSpec> = {
  spent: {
    type: 'string',
    multiple: true,
    help: 'budget used by this iteration, added up per ledger (loops opened with --engineering)',
    placeholder: 'calls=N|tokens=N|usd=N|ms=N',
  },
  'no-op': {
    type: 'boolean',
    help: 'a quiet iteration: no eligible work, no side effect (needs the contract to allow NO_OP)',
  },
  'eligible-count': count('NO_OP: items the eligibility query found (must be 0)'),
  'output-count': count("NO_OP: outputs produced (within the contract's NO_OP output limit)"),
  'side-effects': count('NO_OP: side effects that happened (must be 0)'),
  termination: {
    type: 'string',
    help: "the provider's raw stop signal (end_turn, tool_use, max_tokens, refusal …), stored normalised",
    placeholder: 'RAW',
  },
};

export function engineeringFrom(flags: ParsedFlags) {
  return {
    spent: list(flags.spent),
    noOp: flags.noOp === true,
    eligibleCount: str(flags.eligibleCount),
    outputCount: str(flags.outputCount),
    sideEffects: str(flags.sideEffects),
    termination: str(flags.termination),
  };
}
