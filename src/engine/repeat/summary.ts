// Reading an inner step's final summary: the positive "nothing left" signal that settling needs
//, the "similar in substance" rule that confirms a cycle, the concerns each side of
// a cycle covers, and the short tag a ledger record carries. Every rule here is fixed and pinned
// by test/unit/repeat/summary.test.ts; README.md ("repeat") documents them.

/** Phrases that say the step found nothing left to do (matched case-insensitively, as words). */
export const SETTLE_PHRASES = ['no findings', 'no recommendations', 'nothing to change', 'done', 'settled'];

/** Words that say work is still pending even when a settle phrase appears ("done; 2 deferred"). */
export const PENDING_WORDS = ['deferred', 'pending', 'remaining', 'not applied', 'todo', 'failed', 'blocked'];

/** Values that mark an empty accumulator in a phase report line (`Findings: none`). */
const EMPTY_VALUES = new Set(['none', '0', '-', '—', '[]', 'empty', 'n/a', 'nothing']);

/** JSON keys whose lists must all be empty for a structured summary to be positive. */
const LIST_KEYS = ['findings', 'recommendations', 'pending', 'deferred'];

export interface SettleSignal {
  positive: boolean;
  /** Why, in a few words (shown in notable events and tests). */
  reason: string;
}

function wordPattern(phrase: string): RegExp {
  return new RegExp(`(?:^|[^a-z0-9])${phrase.replace(/ /g, '\\s+')}(?:$|[^a-z0-9])`, 'i');
}

const SETTLE_PATTERNS = SETTLE_PHRASES.map((p) => [p, wordPattern(p)] as const);
const PENDING_PATTERNS = PENDING_WORDS.map((p) => [p, wordPattern(p)] as const);

/** The summary as a JSON object, when it is one. */
export function structuredSummary(summary: string): Record<string, unknown> | null {
  const text = summary.trim();
  if (!text.startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function structuredSignal(json: Record<string, unknown>): SettleSignal {
  const lists = LIST_KEYS.filter((k) => Object.prototype.hasOwnProperty.call(json, k));
  if (lists.length === 0)
    return { positive: false, reason: 'structured summary without findings/recommendations' };
  const open = lists.filter((k) => !Array.isArray(json[k]) || (json[k] as unknown[]).length > 0);
  if (open.length > 0) return { positive: false, reason: `structured summary lists ${open.join(', ')}` };
  return { positive: true, reason: `structured summary with empty ${lists.join(', ')}` };
}

/** `Label: value` lines, two or more, every value empty → a phase report with nothing left. */
function phaseReportSignal(text: string): SettleSignal | null {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length < 2) return null;
  const pairs = lines.map((l) => /^[^:]{1,60}:\s*(.*)$/.exec(l));
  if (pairs.some((p) => p === null)) return null;
  const allEmpty = pairs.every((p) =>
    EMPTY_VALUES.has(((p as RegExpExecArray)[1] ?? '').trim().toLowerCase()),
  );
  return allEmpty
    ? { positive: true, reason: 'phase report with every accumulator empty' }
    : { positive: false, reason: 'phase report with open accumulators' };
}

export function settleSignal(summary: string): SettleSignal {
  const text = summary.trim();
  if (text === '') return { positive: false, reason: 'empty summary' };
  const json = structuredSummary(text);
  if (json) return structuredSignal(json);
  const phase = phaseReportSignal(text);
  if (phase) return phase;
  // A terse "done." says nothing about what was left: ambiguous, so a stall, never a settle.
  if (/^done[.!]*$/i.test(text)) return { positive: false, reason: 'bare "done" with no breakdown' };
  const pending = PENDING_PATTERNS.find(([, re]) => re.test(text));
  if (pending) return { positive: false, reason: `summary mentions "${pending[0]}" work` };
  const phrase = SETTLE_PATTERNS.find(([, re]) => re.test(text));
  if (phrase) return { positive: true, reason: `summary says "${phrase[0]}"` };
  return { positive: false, reason: 'no explicit empty/done signal' };
}

const STOP_WORDS = new Set(
  'a an the and or of to in on for with at by from is are was were be been it its this that as into than then'.split(
    ' ',
  ),
);

/** The summary's content words: lower-case, numbers and stop words dropped (counts vary run to run). */
export function contentWords(summary: string): Set<string> {
  const json = structuredSummary(summary);
  const text = json ? JSON.stringify(json) : summary;
  const words = text.toLowerCase().match(/[a-z][a-z0-9_-]*/g) ?? [];
  return new Set(words.filter((w) => !STOP_WORDS.has(w)));
}

/** Two summaries are similar in substance when their content words overlap by Jaccard ≥ this. */
export const SIMILARITY_THRESHOLD = 0.5;

export function similarInSubstance(a: string, b: string): boolean {
  const x = contentWords(a);
  const y = contentWords(b);
  if (x.size === 0 && y.size === 0) return a.trim() === b.trim();
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / (x.size + y.size - shared) >= SIMILARITY_THRESHOLD;
}

/** The concerns a side of a cycle covers: a structured summary's `concerns` list, else null. */
export function concernsOf(summary: string): string[] | null {
  const json = structuredSummary(summary);
  if (!json || !Array.isArray(json.concerns)) return null;
  return [...new Set(json.concerns.filter((c): c is string => typeof c === 'string').map((c) => c.trim()))]
    .filter((c) => c !== '')
    .sort();
}

const TAG_LENGTH = 120;

/** The one-line tag a record's note carries: counts for a structured summary, else its first line. */
export function summaryTag(summary: string): string {
  const json = structuredSummary(summary);
  if (json) {
    const counts = LIST_KEYS.filter((k) => Array.isArray(json[k])).map(
      (k) => `${k}: ${(json[k] as unknown[]).length}`,
    );
    const status =
      typeof json.summary === 'string' ? json.summary : typeof json.status === 'string' ? json.status : '';
    const tag = [status, counts.join(', ')].filter(Boolean).join(' — ');
    if (tag !== '') return tag.slice(0, TAG_LENGTH);
  }
  const first =
    summary
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '(no summary)';
  return first.length > TAG_LENGTH ? `${first.slice(0, TAG_LENGTH - 1)}…` : first;
}
