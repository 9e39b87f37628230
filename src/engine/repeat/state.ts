// The repeat's own ledger keys: the top-level `repeat` object (counters, recipe, start state,
// follow-up, pending question — what `repeat --session S` needs to continue after a crash or a
// pause) and the `repeat` key of each iteration record. Other parts' validation leaves unknown
// keys alone, so this file checks the shape of ours.
import { isObject } from '../json-object';
import type { IterationRecord, Ledger } from '../types';

export const CLASSIFICATIONS = ['settled', 'stalled', 'cycled', 'continuing'] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

export const RESOLUTIONS = ['retried', 'skipped', 'stay', 'forward-escape'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export const RECIPES = ['git', 'fs'] as const;
export type Recipe = (typeof RECIPES)[number];

/** The eight exit reasons of the reference's dispatch table. */
export const EXIT_REASONS = {
  settled: { label: 'Settled', clean: true },
  'settled-via-cycle': { label: 'Settled-via-cycle (Stay)', clean: true },
  'forward-escape-resolved': { label: 'Forward-escape resolved', clean: true },
  'max-cap': { label: 'Partial: max-cap hit', clean: false },
  'abandoned-at-stall': { label: 'Partial: abandoned at stall pause', clean: false },
  'cycle-abandoned': { label: 'Partial: cycle surfaced, user picked abandon', clean: false },
  'forward-escape-failed': { label: 'Partial: forward-escape failed (≥2 attempts)', clean: false },
  indeterminate: { label: 'Partial: indeterminate (non-interactive, pause needed)', clean: false },
} as const;
export type ExitReason = keyof typeof EXIT_REASONS;

/** Pauses of the loop, and the follow-up's confirmation after a Stay (kept once the loop finished). */
export type QuestionKind = 'stall-first' | 'stall-deeper' | 'cycle' | 'follow-up';

export interface PendingQuestion {
  kind: QuestionKind;
  /** The iteration whose classification raised it. */
  iteration: number;
  options: string[];
  recommendation: string;
  /** The question as shown to a person (also written to `.loop/repeat/<session>.md`). */
  text: string;
  /** Cycles: the earlier iteration the state matched, and the alternate side's iteration. */
  cycle_with?: number;
  alternate?: number;
  /** Cycles surfaced because forward escape already failed (abandon then reads that reason). */
  escape_failed?: boolean;
}

export interface RepeatCounters {
  iteration: number;
  consecutive_stalls: number;
  total_stalls: number;
  first_pause_count: number;
  forward_escape_attempts: number;
}

export interface RepeatState extends RepeatCounters {
  status: 'running' | 'paused' | 'finished';
  inner: string;
  follow_up: string | null;
  max: number | null;
  recipe: Recipe;
  scope: string[];
  exclude: string[];
  summary_file: string | null;
  /** The serialised START_STATE capture. */
  start_state: string;
  /** Ledger record number of this repeat's first iteration (records before it belong to others). */
  first_record: number;
  /** A forward escape was decided at some point (a later settle is "Forward-escape resolved"). */
  escaped: boolean;
  /** The directive the next inner run receives (forward escape, or a skipped recommendation). */
  directive: string | null;
  pending: PendingQuestion | null;
  /** Resolutions decided after the record was written (answers to pauses), by iteration. */
  resolutions: Record<string, Resolution>;
  events: string[];
  exit_reason: ExitReason | null;
  /** What became of the follow-up once the loop ended (absent until then). */
  follow_up_result?: FollowUpResult | null;
  /** The convergence summary as last reported. */
  convergence?: ConvergenceSummary | null;
}

/** One line of the convergence summary's iteration log. */
export interface ConvergenceRow {
  n: number;
  outcome: RepeatRecord['classification'];
  resolution: string;
  change_metric: string;
}

/** The convergence summary as reported, and as kept in the ledger for a later look. */
export interface ConvergenceSummary {
  header: 'Convergence summary' | 'Partial convergence';
  iterations: number;
  exit_reason: string | null;
  exit_label: string;
  net_change: string;
  notable_events: string[];
  log: ConvergenceRow[];
  why_partial: string | null;
  follow_up: string | null;
}

export interface FollowUpResult {
  command: string;
  ran: boolean;
  exit_code: number | null;
  reason: string;
}

/** What each repeat record carries beside the work-loop keys. */
export interface RepeatRecord {
  iteration: number;
  classification: Classification;
  resolution: Resolution | null;
  state: string;
  change_metric: string;
  summary_digest: string;
  /** The summary itself, cut to SUMMARY_KEEP characters: cycle confirmation compares it. */
  summary: string;
  cycle_with: number | null;
  directive: string | null;
  exit_code: number | null;
}

export const SUMMARY_KEEP = 4000;

export type RepeatLedger = Ledger & { repeat?: unknown };
export type RepeatIterationRecord = IterationRecord & { repeat?: RepeatRecord };

const isCount = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isText = (v: unknown) => typeof v === 'string';
const isTextOrNull = (v: unknown) => v === null || typeof v === 'string';
const isTextList = (v: unknown) => Array.isArray(v) && v.every(isText);

/** Findings for a ledger's `repeat` key (each names the key); empty when it is well-formed. */
export function repeatStateProblems(value: unknown): string[] {
  if (!isObject(value)) return ['ledger key "repeat" is not an object'];
  const problems: string[] = [];
  const check = (key: string, ok: boolean, want: string) => {
    if (!ok) problems.push(`ledger key "repeat.${key}" must be ${want}`);
  };
  check(
    'status',
    ['running', 'paused', 'finished'].includes(value.status as string),
    'running, paused or finished',
  );
  check('inner', isText(value.inner) && (value.inner as string).trim() !== '', 'a non-empty command');
  check('follow_up', isTextOrNull(value.follow_up), 'text or null');
  check(
    'max',
    value.max === null || (isCount(value.max) && (value.max as number) > 0),
    'a positive whole number or null',
  );
  check('recipe', (RECIPES as readonly string[]).includes(value.recipe as string), 'git or fs');
  check('scope', isTextList(value.scope), 'a list of globs');
  check('exclude', isTextList(value.exclude), 'a list of globs');
  check('summary_file', isTextOrNull(value.summary_file), 'a path or null');
  check('start_state', isText(value.start_state), 'the serialised start capture');
  for (const key of [
    'iteration',
    'consecutive_stalls',
    'total_stalls',
    'first_pause_count',
    'forward_escape_attempts',
    'first_record',
  ])
    check(key, isCount(value[key]), 'a whole number ≥ 0');
  check('escaped', typeof value.escaped === 'boolean', 'true or false');
  check('directive', isTextOrNull(value.directive), 'text or null');
  check(
    'pending',
    value.pending === null || pendingOk(value.pending),
    'null or a question (kind, iteration, options, recommendation, text)',
  );
  check(
    'resolutions',
    isObject(value.resolutions) &&
      Object.values(value.resolutions).every((r) => (RESOLUTIONS as readonly string[]).includes(r as string)),
    `an object of ${RESOLUTIONS.join(' / ')}`,
  );
  check('events', isTextList(value.events), 'a list of text');
  check(
    'exit_reason',
    value.exit_reason === null ||
      Object.prototype.hasOwnProperty.call(EXIT_REASONS, value.exit_reason as string),
    `null or one of ${Object.keys(EXIT_REASONS).join(' ')}`,
  );
  check(
    'follow_up_result',
    value.follow_up_result === undefined ||
      value.follow_up_result === null ||
      (isObject(value.follow_up_result) &&
        isText(value.follow_up_result.command) &&
        typeof value.follow_up_result.ran === 'boolean'),
    'absent, null, or { command, ran, exit_code, reason }',
  );
  check(
    'convergence',
    value.convergence === undefined || value.convergence === null || isObject(value.convergence),
    'absent, null, or the convergence summary object',
  );
  if (value.status === 'paused' && value.pending === null)
    problems.push('ledger key "repeat.pending" is null but the repeat is paused');
  const kind = isObject(value.pending) ? value.pending.kind : null;
  if (kind !== null && (kind === 'follow-up') !== (value.status === 'finished'))
    problems.push(
      'ledger key "repeat.pending" must be the follow-up question once the repeat finished, and only then',
    );
  return problems;
}

function pendingOk(v: unknown): boolean {
  return (
    isObject(v) &&
    ['stall-first', 'stall-deeper', 'cycle', 'follow-up'].includes(v.kind as string) &&
    isCount(v.iteration) &&
    isTextList(v.options) &&
    isText(v.recommendation) &&
    isText(v.text)
  );
}

/**
 * Whether the ledger's repeat is still to be continued — running (interrupted), paused, or
 * finished with the follow-up's question still open — so `repeat --session S` and `resume`
 * hand it to the repeat driver.
 */
export function repeatUnfinished(state: Pick<RepeatState, 'status' | 'pending'>): boolean {
  return state.status !== 'finished' || state.pending !== null;
}

/** The records of the repeat that `state` describes, in order (its iterations 1..k). */
export function repeatRecords(ledger: Ledger, state: Pick<RepeatState, 'first_record'>): RepeatRecord[] {
  return (ledger.iterations as RepeatIterationRecord[])
    .filter((r) => r.n >= state.first_record && isObject(r.repeat))
    .map((r) => r.repeat as RepeatRecord);
}

export function initialRepeatState(input: {
  inner: string;
  followUp: string | null;
  max: number | null;
  recipe: Recipe;
  scope: string[];
  exclude: string[];
  summaryFile: string | null;
  startState: string;
  firstRecord: number;
}): RepeatState {
  return {
    status: 'running',
    inner: input.inner,
    follow_up: input.followUp,
    max: input.max,
    recipe: input.recipe,
    scope: [...input.scope],
    exclude: [...input.exclude],
    summary_file: input.summaryFile,
    start_state: input.startState,
    first_record: input.firstRecord,
    iteration: 0,
    consecutive_stalls: 0,
    total_stalls: 0,
    first_pause_count: 0,
    forward_escape_attempts: 0,
    escaped: false,
    directive: null,
    pending: null,
    resolutions: {},
    events: [],
    exit_reason: null,
  };
}
