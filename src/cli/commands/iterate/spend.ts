// `iterate --cost USD --tokens-in N --tokens-out N`: what the iteration cost, when the caller
// knows. A bad value is a usage error (exit 2) naming the flag, like any malformed flag value.
import { parseSpendValue } from '../../../engine/spend';
import type { ParsedFlags } from '../../args';
import { UsageError } from '../../usage-error';
import { str } from '../context';

export const SPEND_FLAGS = {
  cost: { type: 'string' as const, help: 'what the iteration cost, in US dollars', placeholder: 'USD' },
  'tokens-in': { type: 'string' as const, help: 'tokens the iteration read (input)', placeholder: 'N' },
  'tokens-out': { type: 'string' as const, help: 'tokens the iteration wrote (output)', placeholder: 'N' },
};

function value(flags: ParsedFlags, key: string, flag: string, whole: boolean): number | null {
  const text = str(flags[key]);
  if (text === null) return null;
  const parsed = parseSpendValue(flag, text, whole);
  if ('problem' in parsed) throw new UsageError(parsed.problem);
  return parsed.value;
}

export function spendFrom(flags: ParsedFlags): {
  costUsd: number | null;
  tokensIn: number | null;
  tokensOut: number | null;
} {
  return {
    costUsd: value(flags, 'cost', '--cost', false),
    tokensIn: value(flags, 'tokensIn', '--tokens-in', true),
    tokensOut: value(flags, 'tokensOut', '--tokens-out', true),
  };
}
