// The four caps (max iterations, time limit, budget, review budget): whether the text is finite
// at all, which numbers count, and — for `open --engineering` — what each cap is in units the
// ledger can add up. Matching is on the normalised (lower-cased, whitespace-collapsed) value.
import { PY_WHITESPACE } from '../python-text';
import { CAP_FIELDS, type CapField } from './fields';
import { pyFloat, textPattern, type Classes } from './unicode';

const S = `[${PY_WHITESPACE}]`;
const word = (c: Classes, alternatives: string): string => `${c.start}(?:${alternatives})${c.end}`;

/** Wording that declares no finite cap, even beside a number ("4 iterations; otherwise unlimited"). */
const UNBOUNDED = textPattern(
  (c) =>
    [
      word(c, 'unlimited|unbounded|uncapped|infinite|indefinitely|forever|open[- ]ended'),
      `${word(c, 'no|without')}${S}+(?:an?${S}+)?(?:(?:upper|hard|fixed)${S}+)?(?:limit|maximum|cap|bound|end)${c.end}`,
      `${word(c, 'repeat|continue|retry|run|loop')}[^]{0,32}?${word(c, 'as long as|while')}${S}+(?:needed|required|necessary)${c.end}`,
    ].join('|'),
  '',
);

/** A number that does not continue a word or another number: `v2` and `1.5.3`'s tail do not count. */
const number = (c: Classes): string =>
  `(?<!${c.word.slice(0, -1)}.])[+-]?(?:${c.digit}+(?:\\.${c.digit}*)?|\\.${c.digit}+)`;
const ANY_NUMBER = textPattern(number, 'g');

/** Per cap: the units that make a number count (singular or plural). */
const UNITS: Record<CapField, string> = {
  'max iterations': 'iterations?|runs?|cycles?|attempts?',
  'time limit': 'milliseconds?|ms|seconds?|minutes?|hours?|days?',
  budget: `(?:(?:tool|api|model)${S}+)?(?:calls?|tokens?|credits?|usd|dollars?)`,
  'review budget': `changed${S}+lines?|lines?|files?|diffs?|reviews?`,
};

const WITH_UNIT = Object.fromEntries(
  Object.entries(UNITS).map(([field, units]) => [
    field,
    textPattern((c) => `(${number(c)})${S}*(${units})${c.end}`, 'g'),
  ]),
) as Record<CapField, (text: string) => RegExp>;
const withUnit = (field: CapField, text: string): RegExp => WITH_UNIT[field](text);

export function isUnbounded(normalisedValue: string): boolean {
  return UNBOUNDED(normalisedValue).test(normalisedValue);
}

/** The numbers that count for a cap: those followed by the cap's unit, else every number. */
export function capNumbers(field: CapField, normalisedValue: string): number[] {
  const scoped = [...normalisedValue.matchAll(withUnit(field, normalisedValue))].map((m) =>
    pyFloat(m[1] as string),
  );
  if (scoped.length > 0) return scoped;
  return [...normalisedValue.matchAll(ANY_NUMBER(normalisedValue))].map((m) => pyFloat(m[0]));
}

/** What a cap's problem is, if it has one (checked only when the value is not empty). */
export function capProblem(field: CapField, normalisedValue: string): 'not-finite' | 'not-positive' | null {
  if (normalisedValue === '') return null;
  if (isUnbounded(normalisedValue)) return 'not-finite';
  const numbers = capNumbers(field, normalisedValue);
  if (numbers.length === 0) return 'not-finite';
  return numbers.some((n) => n <= 0) ? 'not-positive' : null;
}

/**
 * Whole numbers as a reader sees them, for the strict review-budget ceiling: `1,500` is one
 * thousand five hundred. (The original reads digit runs only, so `1,500 changed lines` passes
 * its strict check as 1 and 500 — a deliberate difference: ours refuses it.)
 */
const GROUPED = textPattern((c) => `${c.digit}{1,3}(?:,${c.digit}{3})+(?!${c.digit})|${c.digit}+`, 'g');

export function wholeNumbers(normalisedValue: string): number[] {
  return [...normalisedValue.matchAll(GROUPED(normalisedValue))].map((m) => pyFloat(m[0].replace(/,/g, '')));
}

/** The caps the ledger enforces, in units it can add up; null where the text names no such unit. */
export interface ParsedCaps {
  iterations: number | null;
  ms: number | null;
  calls: number | null;
  tokens: number | null;
  usd: number | null;
  changed_lines: number | null;
  files: number | null;
}

const MS_PER: Record<string, number> = {
  millisecond: 1,
  ms: 1,
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

const SPACES = new RegExp(`${S}+`, 'g');

function unitKey(unit: string): string {
  const u = unit.replace(SPACES, ' ');
  return u === 'ms' ? u : u.replace(/s$/, '');
}

/** The smallest positive amount per unit class named in `value` (several caps: the tightest wins). */
function amounts(
  field: CapField,
  value: string,
  classify: (unit: string) => string | null,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of value.matchAll(withUnit(field, value))) {
    const unit = unitKey(m[2] as string);
    const cls = classify(unit);
    const n = pyFloat(m[1] as string);
    if (cls === null || !(n > 0)) continue;
    const scaled = field === 'time limit' ? n * (MS_PER[unit] ?? 1) : n;
    out.set(cls, Math.min(out.get(cls) ?? Infinity, scaled));
  }
  return out;
}

/** Reads the enforceable caps from the four (normalised) cap values. */
export function parseCaps(values: Record<CapField, string>): ParsedCaps {
  const iterations = amounts('max iterations', values['max iterations'], () => 'iterations');
  // "Max iterations: 4." names no unit, but an iteration cap can only count iterations.
  const bare = capNumbers('max iterations', values['max iterations']).filter((n) => n > 0);
  const time = amounts('time limit', values['time limit'], () => 'ms');
  const budget = amounts('budget', values.budget, (unit) => {
    if (unit.endsWith('call')) return 'calls';
    if (unit === 'token') return 'tokens';
    if (unit === 'usd' || unit === 'dollar') return 'usd';
    return null; // credits: nothing the ledger can count
  });
  const dollars = [...values.budget.matchAll(DOLLARS(values.budget))].map((m) => pyFloat(m[1] as string));
  const review = amounts('review budget', values['review budget'], (unit) =>
    unit.endsWith('line') ? 'changed_lines' : unit === 'file' ? 'files' : null,
  );
  const reviewLines = wholeLineCaps(values['review budget']);
  const pick = (m: Map<string, number>, key: string): number | null => m.get(key) ?? null;
  const minOf = (...xs: (number | null)[]): number | null => {
    const present = xs.filter((x): x is number => x !== null && x > 0);
    return present.length > 0 ? Math.min(...present) : null;
  };
  return {
    iterations: pick(iterations, 'iterations') ?? (bare.length > 0 ? Math.floor(Math.min(...bare)) : null),
    ms: pick(time, 'ms'),
    calls: pick(budget, 'calls'),
    tokens: pick(budget, 'tokens'),
    usd: minOf(pick(budget, 'usd'), ...dollars),
    // A grouped number (`1,500 lines`) is read whole; its tail (`500 lines`) is not another cap.
    changed_lines: reviewLines ?? pick(review, 'changed_lines'),
    files: pick(review, 'files'),
  };
}

const DOLLARS = textPattern((c) => `\\$${S}*(${c.digit}+(?:\\.${c.digit}+)?)`, 'g');
const GROUPED_LINES = textPattern(
  (c) =>
    `${number(c).split('[+-]?')[0]}(${c.digit}{1,3}(?:,${c.digit}{3})+)${S}*(?:changed${S}+)?lines?${c.end}`,
  'g',
);

/** `1,500 changed lines` caps lines at 1500, not 500. */
function wholeLineCaps(value: string): number | null {
  const found = [...value.matchAll(GROUPED_LINES(value))].map((m) =>
    pyFloat((m[1] as string).replace(/,/g, '')),
  );
  return found.length > 0 ? Math.min(...found) : null;
}

/** Units a cap may name that no ledger count stands for (`--spent` has no such kind; a brief is one diff). */
const UNCOUNTABLE_UNIT: Partial<Record<CapField, (unit: string) => boolean>> = {
  budget: (unit) => unit === 'credit',
  'review budget': (unit) => unit === 'diff' || unit === 'review',
};

/** What each countable cap field needs to be enforced, for the finding that refuses it. */
const COUNTABLE_WORDS: Partial<Record<CapField, string>> = {
  'time limit': 'milliseconds, seconds, minutes, hours or days',
  budget: 'tool calls, tokens, usd or $',
  'review budget': 'changed lines or files',
};

/**
 * The caps `open --engineering` could not enforce, each with why: a field whose numbers name no
 * unit the ledger counts (`Time limit: 45`, `Budget: 10 credits`), or that counts something in
 * such a unit beside a countable one (`18 calls and 10 credits`). Admission refuses these rather
 * than store a null cap that never fires. The max-iterations cap always counts (a bare number is
 * iterations), and the validator itself keeps the original's verdicts (`Time limit: 45` passes).
 */
export function uncountableCaps(
  values: Record<CapField, string>,
  caps: ParsedCaps,
): { field: CapField; problem: string }[] {
  const counted: Record<CapField, boolean> = {
    'max iterations': true,
    'time limit': caps.ms !== null,
    budget: caps.calls !== null || caps.tokens !== null || caps.usd !== null,
    'review budget': caps.changed_lines !== null || caps.files !== null,
  };
  const out: { field: CapField; problem: string }[] = [];
  for (const field of CAP_FIELDS) {
    const words = COUNTABLE_WORDS[field];
    if (words === undefined || values[field] === '') continue;
    const uncountable = UNCOUNTABLE_UNIT[field];
    const stray = uncountable
      ? [...values[field].matchAll(withUnit(field, values[field]))].find((m) =>
          uncountable(unitKey(m[2] as string)),
        )
      : undefined;
    if (!counted[field]) {
      out.push({ field, problem: `names no unit the ledger can count; state it in ${words}` });
    } else if (stray) {
      out.push({
        field,
        problem: `"${stray[0]}" is in a unit the ledger cannot count; state it in ${words}, or drop it`,
      });
    }
  }
  return out;
}
