// What an iteration cost (US dollars, tokens in and out) and the caps a contract may put on it.
// A record carries `cost_usd`, `tokens_in` and `tokens_out` only when the caller reported them,
// so a ledger written without them reads exactly as before, and the original engine (which
// ignores extra keys) still reads ours. Pure.
import type { Contract, IterationRecord } from './types';

export interface Spend {
  cost_usd: number;
  tokens_in: number;
  tokens_out: number;
}

/** The spend keys a record may carry, in the order they are reported. */
export const SPEND_KEYS = ['cost_usd', 'tokens_in', 'tokens_out'] as const;

/** The optional contract caps, beside `iteration_limit`. */
export const LIMIT_FIELDS = ['cost_limit', 'token_limit', 'time_limit'] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];

export function noSpend(): Spend {
  return { cost_usd: 0, tokens_in: 0, tokens_out: 0 };
}

// Dollars are summed to a hundred-millionth so that 0.1 + 0.2 reads 0.3, not 0.30000000000000004.
const addUsd = (a: number, b: number): number => Math.round((a + b) * 1e8) / 1e8;

export function addSpend(a: Spend, b: Partial<Spend>): Spend {
  return {
    cost_usd: addUsd(a.cost_usd, b.cost_usd ?? 0),
    tokens_in: a.tokens_in + (b.tokens_in ?? 0),
    tokens_out: a.tokens_out + (b.tokens_out ?? 0),
  };
}

/** The spend keys a record reported (none for a record written without them). */
export function recordSpend(record: Partial<Record<(typeof SPEND_KEYS)[number], unknown>>): Partial<Spend> {
  const out: Partial<Spend> = {};
  for (const key of SPEND_KEYS) {
    const value = record[key];
    // A hand-edited record with a bad value counts as not reported, never as NaN in a total.
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) out[key] = value;
  }
  return out;
}

export function hasSpend(spend: Partial<Spend>): boolean {
  return SPEND_KEYS.some((key) => spend[key] !== undefined);
}

/** Total over `records` (records without the keys add nothing). */
export function spendOf(records: readonly IterationRecord[]): Spend {
  let total = noSpend();
  for (const record of records) total = addSpend(total, recordSpend(record));
  return total;
}

/** 2^53 − 1: past it a count is no longer exact; the most one `--cost` or report may say. */
export const LARGEST_SPEND = Number.MAX_SAFE_INTEGER;
const LARGEST = LARGEST_SPEND;

/**
 * One `--cost`, `--tokens-in` or `--tokens-out` value: a plain decimal number of 0 or more,
 * whole for tokens, at most 2^53 − 1. A problem names the flag and the value.
 */
export function parseSpendValue(
  flag: string,
  text: string,
  whole: boolean,
): { value: number } | { problem: string } {
  const trimmed = text.trim();
  const shape = whole ? /^\d+$/ : /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
  const what = whole ? 'a whole number of 0 or more' : 'a number of 0 or more (US dollars)';
  if (!shape.test(trimmed)) return { problem: `${flag} ${text}: must be ${what}` };
  const value = Number(trimmed);
  if (!Number.isFinite(value) || value > LARGEST) {
    return { problem: `${flag} ${text}: too large (at most 2^53 − 1 = ${LARGEST})` };
  }
  return { value };
}

/** The caps the contract declares (absent: none). */
export function contractLimits(
  contract: Partial<Record<LimitField, unknown>>,
): Partial<Record<LimitField, number>> {
  const out: Partial<Record<LimitField, number>> = {};
  for (const field of LIMIT_FIELDS) {
    const value = contract[field];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) out[field] = value;
  }
  return out;
}

/** Seconds from `opened_at` (the epoch's opening) to `at`; null without a usable stamp. */
export function elapsedSeconds(openedAt: string | null | undefined, at: Date | string | null): number | null {
  if (!openedAt || at === null) return null;
  const start = Date.parse(openedAt);
  const end = typeof at === 'string' ? Date.parse(at) : at.getTime();
  return Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, (end - start) / 1000) : null;
}

export type LimitStall = 'cost-exhausted' | 'tokens-exhausted' | 'time-exhausted';

/**
 * The first cap this iteration reaches, in contract order (cost, tokens, time), or null. Like
 * the iteration limit, reaching a cap ends the loop: the iteration that spends the last dollar
 * is the last one.
 */
export function reachedLimit(
  contract: Pick<Contract, LimitField>,
  epochSpend: Spend,
  elapsed: number | null,
): { name: LimitStall; words: string } | null {
  const limits = contractLimits(contract);
  if (limits.cost_limit !== undefined && epochSpend.cost_usd >= limits.cost_limit) {
    return { name: 'cost-exhausted', words: `cost ${epochSpend.cost_usd}/${limits.cost_limit} USD` };
  }
  const tokens = epochSpend.tokens_in + epochSpend.tokens_out;
  if (limits.token_limit !== undefined && tokens >= limits.token_limit) {
    return { name: 'tokens-exhausted', words: `tokens ${tokens}/${limits.token_limit}` };
  }
  if (limits.time_limit !== undefined && elapsed !== null && elapsed >= limits.time_limit) {
    return { name: 'time-exhausted', words: `time ${Math.floor(elapsed)}/${limits.time_limit} s` };
  }
  return null;
}
