// How cost and tokens read in one short phrase, for `status`, `list` and the session tooltip.
import type { Spend } from '../engine/spend';

/** `$0.42, 12000 tokens` — empty when nothing was reported. */
export function spendWords(spend: Spend | null | undefined): string {
  if (!spend) return '';
  const tokens = spend.tokens_in + spend.tokens_out;
  if (spend.cost_usd === 0 && tokens === 0) return '';
  const parts: string[] = [];
  if (spend.cost_usd > 0) parts.push(`$${spend.cost_usd}`);
  if (tokens > 0) parts.push(`${tokens} tokens (${spend.tokens_in} in, ${spend.tokens_out} out)`);
  return parts.join(', ');
}

/** `cost 1.5/5 USD, tokens 900/1000` for the caps the contract declares, or empty. */
export function limitWords(limits: {
  cost_usd?: { spent: number; cap: number };
  tokens?: { spent: number; cap: number };
  time_s?: { spent: number; cap: number };
}): string {
  const parts: string[] = [];
  if (limits.cost_usd) parts.push(`cost ${limits.cost_usd.spent}/${limits.cost_usd.cap} USD`);
  if (limits.tokens) parts.push(`tokens ${limits.tokens.spent}/${limits.tokens.cap}`);
  if (limits.time_s) parts.push(`time ${limits.time_s.spent}/${limits.time_s.cap} s`);
  return parts.join(', ');
}
