// Budget stops: what `iterate --spent` adds, and which caps the loop has reached. A reached cap
// turns a `continue` into `stop` through the `budget-stop` stall predicate — never into success.
import { wholeText, type ChunkedText } from '../chunked-text';
import type { ParsedCaps } from './caps';
import { SPENT_KINDS, type EngineeringState, type Spent, type SpentKind } from './state';

/**
 * The largest amount a ledger keeps exactly: past 2^53 − 1 a JSON number silently rounds
 * (9007199254740993 would be stored as …992), so a total could no longer be trusted.
 */
const MAX_EXACT = Number.MAX_SAFE_INTEGER;
const MAX_EXACT_TEXT = `${MAX_EXACT} (2^53 − 1)`;

/**
 * Parses `--spent KIND=N` values; each problem names the flag value. `outOfRange` holds the
 * values too large to keep exactly: a usage error rather than a malformed fact.
 */
export function parseSpent(specs: string[]): { delta: Spent; problems: string[]; outOfRange: string[] } {
  const delta: Spent = { calls: 0, tokens: 0, usd: 0, ms: 0 };
  const problems: string[] = [];
  const outOfRange: string[] = [];
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const kind = spec.slice(0, eq).trim();
    const text = spec.slice(eq + 1).trim();
    if (eq < 0 || !(SPENT_KINDS as readonly string[]).includes(kind)) {
      problems.push(`--spent ${spec}: expected KIND=N with KIND one of ${SPENT_KINDS.join(', ')}`);
      continue;
    }
    const wholeOnly = kind !== 'usd';
    const ok = wholeOnly ? /^\d+$/.test(text) : /^(?:\d+(?:\.\d+)?|\.\d+)$/.test(text);
    const n = Number(text);
    if (!ok || !Number.isFinite(n)) {
      problems.push(
        `--spent ${spec}: ${kind} must be a ${wholeOnly ? 'whole number' : 'number'} of 0 or more`,
      );
      continue;
    }
    if (n > MAX_EXACT) {
      outOfRange.push(`--spent ${spec}: ${kind} must be at most ${MAX_EXACT_TEXT}, or it would be rounded`);
      continue;
    }
    delta[kind as SpentKind] += n;
  }
  return { delta, problems, outOfRange };
}

/** The refusals for totals this iteration would carry past what the ledger keeps exactly. */
export function spentTotalsOutOfRange(totals: Spent): string[] {
  return SPENT_KINDS.filter((kind) => totals[kind] > MAX_EXACT).map(
    (kind) => `--spent: the loop's ${kind} total would pass ${MAX_EXACT_TEXT}, where it would be rounded`,
  );
}

export function addSpent(a: Spent, b: Spent): Spent {
  // usd is kept to the cent's hundredth so repeated additions do not drift.
  return {
    calls: a.calls + b.calls,
    tokens: a.tokens + b.tokens,
    usd: Math.round((a.usd + b.usd) * 10_000) / 10_000,
    ms: a.ms + b.ms,
  };
}

/** Milliseconds from `opened_at` to `now`; 0 when the ledger has no usable stamp. */
export function elapsedMs(openedAt: string | null | undefined, now: Date): number {
  const start = openedAt ? Date.parse(openedAt) : NaN;
  return Number.isFinite(start) ? Math.max(0, now.getTime() - start) : 0;
}

export interface BudgetFacts {
  caps: ParsedCaps;
  spent: Spent;
  elapsed_ms: number;
  review: EngineeringState['review'];
  /** Iterations of the current epoch, this one included. */
  iteration: number;
}

/** The caps reached, as `name used/cap` words (empty: keep going). */
export function reachedCaps(f: BudgetFacts): string[] {
  const out: string[] = [];
  const { caps } = f;
  if (caps.iterations !== null && f.iteration >= caps.iterations)
    out.push(`iterations ${f.iteration}/${caps.iterations}`);
  const time = Math.max(f.elapsed_ms, f.spent.ms);
  if (caps.ms !== null && time >= caps.ms) out.push(`time ${time}/${caps.ms} ms`);
  if (caps.calls !== null && f.spent.calls >= caps.calls) out.push(`calls ${f.spent.calls}/${caps.calls}`);
  if (caps.tokens !== null && f.spent.tokens >= caps.tokens)
    out.push(`tokens ${f.spent.tokens}/${caps.tokens}`);
  if (caps.usd !== null && f.spent.usd >= caps.usd) out.push(`usd ${f.spent.usd}/${caps.usd}`);
  // The review budget caps the size of a change a reviewer must read: only going over it stops.
  if (f.review && caps.changed_lines !== null && f.review.changed_lines > caps.changed_lines) {
    out.push(`changed lines ${f.review.changed_lines}/${caps.changed_lines}`);
  }
  if (f.review && caps.files !== null && f.review.files > caps.files)
    out.push(`files ${f.review.files}/${caps.files}`);
  return out;
}

/** A diff's size as a reviewer meets it: added plus removed lines, and the files it touches. */
export function diffSize(diff: string, files: number): { changed_lines: number; files: number } {
  let changed = 0;
  for (const line of diff.split(/\r?\n/)) {
    if (
      (line.startsWith('+') && !line.startsWith('+++')) ||
      (line.startsWith('-') && !line.startsWith('---'))
    ) {
      changed++;
    }
  }
  return { changed_lines: changed, files };
}

/** Spent against each cap, for `status` and the editor: `{calls: {spent, cap}, …}`. */
export function budgetReport(
  state: EngineeringState,
  iterations: number,
): Record<string, { spent: number; cap: number | null }> {
  const { caps, spent } = state;
  return {
    iterations: { spent: iterations, cap: caps.iterations },
    time_ms: { spent: Math.max(state.elapsed_ms, spent.ms), cap: caps.ms },
    calls: { spent: spent.calls, cap: caps.calls },
    tokens: { spent: spent.tokens, cap: caps.tokens },
    usd: { spent: spent.usd, cap: caps.usd },
    changed_lines: { spent: state.review?.changed_lines ?? 0, cap: caps.changed_lines },
    files: { spent: state.review?.files ?? 0, cap: caps.files },
  };
}

/**
 * After `brief`: the diff a reviewer now has to read is what the review budget caps. A ledger
 * without the engineering key is returned unchanged.
 */
export function withReviewedDiff<L extends object>(ledger: L, diff: string | ChunkedText, files: number): L {
  const engineering = (ledger as { engineering?: EngineeringState }).engineering;
  if (engineering === undefined || engineering === null || typeof engineering !== 'object') return ledger;
  // A diff kept as bytes is decoded here, and only for a ledger that keeps the count.
  return { ...ledger, engineering: { ...engineering, review: diffSize(wholeText(diff), files) } };
}
