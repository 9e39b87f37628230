// What an agent reports of its own cost and tokens, when its JSON output says so. Agent CLIs
// print it in a few shapes: Claude Code's `total_cost_usd` and `usage.input_tokens` /
// `usage.output_tokens`, OpenAI-style `usage.prompt_tokens` / `usage.completion_tokens`, or
// Loop Ledger's own `cost_usd`, `tokens_in`, `tokens_out`. Anything else reports nothing. Pure.
//
// An agent's report is held to what `iterate --cost` accepts: at most 2^53 − 1. A larger cost is
// not a cost but a broken report, so it counts as not reported (as a negative one does) rather
// than being clamped into a number nobody spent; and the sum of an attempt's reports stops at
// 2^53 − 1, so two huge reports never add up to Infinity (which JSON writes as null).
import { isObject } from '../json-object';
import { addSpend, LARGEST_SPEND, noSpend, type Spend } from '../spend';

const money = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= LARGEST_SPEND ? v : undefined;
const count = (v: unknown): number | undefined =>
  Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : undefined;

/** The cost and tokens one agent's parsed stdout reports (keys absent when it reports none). */
export function agentUsage(result: unknown): Partial<Spend> {
  if (!isObject(result)) return {};
  const usage = isObject(result.usage) ? result.usage : {};
  const out: Partial<Spend> = {};
  const cost = money(result.total_cost_usd) ?? money(result.cost_usd);
  const tokensIn = count(result.tokens_in) ?? count(usage.input_tokens) ?? count(usage.prompt_tokens);
  const tokensOut = count(result.tokens_out) ?? count(usage.output_tokens) ?? count(usage.completion_tokens);
  if (cost !== undefined) out.cost_usd = cost;
  if (tokensIn !== undefined) out.tokens_in = tokensIn;
  if (tokensOut !== undefined) out.tokens_out = tokensOut;
  return out;
}

/** Two agents' reports added key by key (a key stays absent when neither reported it). */
export function addUsage(a: Partial<Spend>, b: Partial<Spend>): Partial<Spend> {
  const sum = addSpend(addSpend(noSpend(), a), b);
  const out: Partial<Spend> = {};
  for (const key of ['cost_usd', 'tokens_in', 'tokens_out'] as const) {
    if (a[key] !== undefined || b[key] !== undefined) out[key] = Math.min(sum[key], LARGEST_SPEND);
  }
  return out;
}
