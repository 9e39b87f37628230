// What the session overview draws, prepared from a ledger in one pass: the header, one series
// per rubric dimension, the weighted total, spend per iteration, the outcome timeline with its
// epoch bands, stalls and critic verdicts, and what the other loop kinds keep. Every series is
// downsampled (series.ts), so the result stays a few hundred kilobytes at most whatever the
// ledger's size. The ledger is read defensively: optional keys other writers add (cost, tokens,
// a repeat's record) are used when they are well-formed and ignored when they are not.
import type { StatusPayload } from '../status';
import type { IterationRecord, Ledger, RubricDimension } from '../types';
import {
  downsampleColumns,
  SeriesColumns,
  TimelineColumns,
  timelineMarksOf,
  type Series,
  type TimelineMark,
} from './series';
import type { KindRow, RunAttemptRef } from './kind-row';
import { runRows } from './run-rows';

import { isText, textOf } from './text';

/** At most this many dimensions are charted; a contract with more says how many were left out. */
export const MAX_DIMENSIONS = 24;
/** At most this many stalls, verdicts and kind rows are listed (the newest). */
export const MAX_LISTED = 200;

export type LoopKind = 'work' | 'repeat' | 'run' | 'engineering' | 'work-order';

/** The owner a work-order run's ledgers open under (src/app/workorders/ledger.ts). */
const WORK_ORDER_OWNER = 'loop-ledger wo run';

export interface RunReceiptLine {
  readonly runId: string;
  readonly verdict: string;
  readonly stopReason: string;
  readonly attemptsUsed: number | null;
  readonly maxAttempts: number | null;
}

export interface KindNote {
  readonly note:
    | 'run-folder-missing'
    | 'receipt-missing'
    | 'receipt-malformed'
    | 'work-order-missing'
    | 'run-state-malformed';
  readonly runId: string | null;
}

export interface SpendLine {
  /** `iterations`, `usd`, `tokens`, `time_ms`, … */
  readonly key: string;
  readonly spent: number;
  readonly cap: number | null;
}

export interface DimensionChart {
  readonly dimension: string;
  readonly direction: 'higher-is-better' | 'lower-is-better';
  readonly baseline: number | null;
  readonly target: number | null;
  readonly failureThreshold: number | null;
  readonly weight: number | null;
  readonly hardGate: boolean;
  /** Measured values; a bucket is marked when a hard gate failed in it. */
  readonly series: Series;
}

/** A first look at a long ledger: only its newest records are charted until the rest is read. */
export interface OverviewPartial {
  readonly shown: number;
  readonly firstShown: number;
  readonly lastShown: number;
  /** Every record of the ledger, from its stored summary; null when it has none. */
  readonly total: number | null;
}

export interface OverviewModel {
  readonly session: string;
  readonly kind: LoopKind;
  readonly purpose: string;
  readonly owner: string;
  readonly status: string;
  readonly finalOutcome: string | null;
  readonly epoch: number;
  /** Every record of the ledger, across epochs. */
  readonly iterations: number;
  /** Records of the current epoch, which the iteration limit counts. */
  readonly epochIterations: number;
  readonly iterationLimit: number | null;
  readonly lastTimestamp: string | null;
  readonly pendingBrief: string | null;
  /** A work order's attempts so far (each opens an epoch: the current epoch); null for other kinds. */
  readonly attempts: number | null;
  /** The cap a work order's attempts run under, when the host knows it (kind-facts.ts). */
  readonly attemptCap: number | null;
  readonly spend: SpendLine[];
  readonly dimensions: DimensionChart[];
  readonly dimensionsLeftOut: number;
  readonly total: Series | null;
  /** Cost per iteration (`cost_usd`), when records carry it. */
  readonly cost: Series | null;
  readonly timeline: TimelineMark[];
  readonly epochs: { readonly n: number; readonly first: number; readonly last: number }[];
  readonly stalls: { readonly n: number; readonly stall: string }[];
  readonly verdicts: { readonly n: number; readonly verdict: string; readonly brief: string | null }[];
  /**
   * A repeat's classification and change metric per iteration, a run's attempts, a work order's
   * attempts (the newest MAX_LISTED). A run's row carries its phases' durations once the host has
   * read the run folder.
   */
  readonly kindRows: KindRow[];
  readonly kindColumns: string[];
  /**
   * A run's rows' run and attempt (one per kind row, same order), with the run folder its
   * evidence names (repo-relative) when it names one; [] for other kinds.
   */
  readonly runAttempts: RunAttemptRef[];
  /** The final receipts of the session's runs, as the run folders hold them. */
  readonly receipts: RunReceiptLine[];
  /** What the files beside the ledger could not tell (the rows then show the ledger alone). */
  readonly kindNotes: KindNote[];
  /** Present only on a first look at a long ledger (the full read replaces it). */
  readonly partial?: OverviewPartial;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The loop kind: a repeat keeps a `repeat` key, a harness run names itself as owner. */
export function loopKind(ledger: Ledger): LoopKind {
  const raw = ledger as unknown as Record<string, unknown>;
  if (raw.repeat !== undefined) return 'repeat';
  if (raw.engineering !== undefined) return 'engineering';
  if (ledger.contract?.owner === 'loop-ledger run') return 'run';
  if (ledger.contract?.owner === WORK_ORDER_OWNER) return 'work-order';
  return 'work';
}

function recordNumber(record: Record<string, unknown>, key: string): number | null {
  const v = record[key];
  return isNumber(v) ? v : null;
}

/** What records report of cost and tokens, summed in record order. */
interface SpendSums {
  usd: number;
  tokens: number;
  sawUsd: boolean;
  sawTokens: boolean;
}

function addSpendOf(sums: SpendSums, record: Record<string, unknown>): void {
  const c = recordNumber(record, 'cost_usd');
  if (c !== null) {
    sums.usd += c;
    sums.sawUsd = true;
  }
  const tIn = recordNumber(record, 'tokens_in');
  const tOut = recordNumber(record, 'tokens_out');
  if (tIn !== null) sums.tokens += tIn;
  if (tOut !== null) sums.tokens += tOut;
  if (tIn !== null || tOut !== null) sums.sawTokens = true;
}

/** Spend: the engineering budget when the ledger has one, else what records and contract hold. */
function spendLines(
  ledger: Ledger,
  status: StatusPayload | null,
  sums: SpendSums,
  epochIterations: number,
): SpendLine[] {
  if (status?.budget) {
    return Object.entries(status.budget)
      .filter(([key, line]) => key === 'iterations' || line.spent !== 0 || line.cap !== null)
      .map(([key, line]) => ({ key, spent: line.spent, cap: line.cap }));
  }
  const contract = (ledger.contract ?? {}) as unknown as Record<string, unknown>;
  const cap = (key: string): number | null => (isNumber(contract[key]) ? (contract[key] as number) : null);
  const lines: SpendLine[] = [{ key: 'iterations', spent: epochIterations, cap: cap('iteration_limit') }];
  const { usd, tokens, sawUsd, sawTokens } = sums;
  if (sawUsd || cap('cost_limit') !== null)
    lines.push({ key: 'usd', spent: Math.round(usd * 1e6) / 1e6, cap: cap('cost_limit') });
  if (sawTokens || cap('token_limit') !== null)
    lines.push({ key: 'tokens', spent: tokens, cap: cap('token_limit') });
  if (cap('time_limit') !== null) lines.push({ key: 'time_limit', spent: NaN, cap: cap('time_limit') });
  return lines.filter((l) => !Number.isNaN(l.spent));
}

/**
 * Fills one column per charted dimension from `record`: the evaluation's measured value when the
 * first scored entry of that dimension has one, else the raw measurement. `byName` maps a
 * dimension's name to its column and `names` lists them in column order; `seen` (one slot per column) is stamped with `stamp` so the
 * first scored entry wins without a lookup per dimension.
 */
function measureInto(
  record: IterationRecord,
  byName: Map<string, number>,
  names: readonly string[],
  columns: SeriesColumns[],
  seen: Int32Array,
  stamp: number,
): void {
  const scored = record.evaluation?.dimensions;
  if (Array.isArray(scored)) {
    for (const entry of scored) {
      if (!entry) continue;
      const d = byName.get(entry.dimension);
      if (d === undefined || seen[d] === stamp || seen[d] === -stamp - 1) continue;
      seen[d] = stamp;
      if (isNumber(entry.measured)) {
        columns[d]!.push(record.n, entry.measured, entry.gate_failed === true);
        seen[d] = -stamp - 1; // measured here: the raw measurement is not read
      }
    }
  }
  const measured = record.measurements;
  if (!measured || typeof measured !== 'object') return;
  for (let d = 0; d < names.length; d += 1) {
    if (seen[d] === -stamp - 1) continue;
    const v = measured[names[d]!];
    if (isNumber(v)) columns[d]!.push(record.n, v, false);
  }
}

const recordEpochOf = (r: IterationRecord): number => (isNumber(r.epoch) ? r.epoch : 1);

/** A repeat's row of `record`, or null when it keeps no repeat. */
function repeatRow(record: IterationRecord): KindRow | null {
  const repeat = (record as unknown as { repeat?: unknown }).repeat;
  if (typeof repeat !== 'object' || repeat === null) return null;
  const r = repeat as Record<string, unknown>;
  return { n: record.n, cells: [textOf(r.classification), textOf(r.change_metric), textOf(r.resolution)] };
}

/** Keeps at most `2 * limit` items and drops the oldest half then: the newest `limit` survive. */
function pushNewest<T>(list: T[], item: T, limit: number): void {
  list.push(item);
  if (list.length >= 2 * limit) list.splice(0, list.length - limit);
}

/** How a work order's closing outcome reads: the verdict that closed the attempt. */
const WORK_ORDER_CLOSE: Record<string, string> = {
  complete: 'CLEAN (complete)',
  revise: 'RETRYABLE (revise)',
  escalate: 'TERMINAL (escalate)',
  stop: 'stopped',
};

/**
 * A work order's attempts, one row per epoch (an attempt opens one): the phases its records name
 * (actions `wo-NN/aK/<phase>`) and how it ended. The ledger keeps only the last close, so an
 * earlier attempt reads "re-dispatched"; the open one reads "in progress".
 */
function workOrderRows(
  ledger: Ledger,
  phases: ReadonlyMap<number, string[]>,
  epochs: readonly { n: number; first: number; last: number }[],
): OverviewModel['kindRows'] {
  return epochs.slice(-MAX_LISTED).map((band, i, shown) => {
    const last = i === shown.length - 1;
    const ended = !last
      ? 're-dispatched'
      : ledger.status === 'closed'
        ? (WORK_ORDER_CLOSE[textOf(ledger.final_outcome)] ?? textOf(ledger.final_outcome))
        : 'in progress';
    return { n: band.first, cells: [String(band.n), (phases.get(band.n) ?? []).join(', ') || '—', ended] };
  });
}

/** The phases a work order's record names in its actions, added to its epoch's list. */
function addPhases(phases: Map<number, string[]>, record: IterationRecord): void {
  const e = recordEpochOf(record);
  for (const action of Array.isArray(record.actions) ? record.actions : []) {
    const phase = isText(action) ? /\/a\d+\/([a-z-]+)$/.exec(action)?.[1] : undefined;
    if (!phase) continue;
    const list = phases.get(e) ?? [];
    if (!list.includes(phase)) list.push(phase);
    phases.set(e, list);
  }
}

/**
 * The overview of `ledger`. `status` is the engine's status payload when the caller has it (the
 * engineering budget comes from it); `buckets` is about the chart width in pixels.
 */
export function buildOverview(ledger: Ledger, status: StatusPayload | null, buckets: number): OverviewModel {
  const records = Array.isArray(ledger.iterations) ? ledger.iterations : [];
  const fold = new OverviewFold(ledger, records.length);
  for (const record of records) fold.add(record);
  return fold.finish(status, buckets);
}

/**
 * buildOverview as a fold: `add` each record in file order (only the fields the model reads are
 * looked at, and no record is kept but the newest MAX_LISTED), then `finish` for a chart width —
 * as often as needed, `finish` changes nothing. A reader that streams a long ledger feeds it
 * record by record, so 100,000 records never exist at once.
 */
export class OverviewFold {
  private readonly epoch: number;
  readonly kind: LoopKind;
  private readonly rubric: RubricDimension[];
  private readonly byName = new Map<string, number>();
  private readonly columnOf: number[];
  private readonly names: string[];
  private readonly measured: SeriesColumns[];
  private readonly seen: Int32Array;
  private readonly total: SeriesColumns;
  private readonly cost = new SeriesColumns(64);
  private readonly timeline: TimelineColumns;
  private readonly epochs: { n: number; first: number; last: number }[] = [];
  private readonly stalls: { n: number; stall: string }[] = [];
  private readonly verdicts: { n: number; verdict: string; brief: string | null }[] = [];
  private readonly repeats: KindRow[] = [];
  private readonly phases = new Map<number, string[]>();
  private readonly newest: IterationRecord[] = [];
  private readonly sums: SpendSums = { usd: 0, tokens: 0, sawUsd: false, sawTokens: false };
  private epochIterations = 0;
  private count = 0;
  private last: IterationRecord | undefined;

  /** `capacity`: about how many records will be added (the columns grow past it). */
  constructor(
    private readonly ledger: Ledger,
    capacity: number,
  ) {
    this.epoch = isNumber(ledger.epoch) ? ledger.epoch : 1;
    this.kind = loopKind(ledger);
    this.rubric = (
      Array.isArray(ledger.contract?.quality_rubric) ? ledger.contract.quality_rubric : []
    ).slice(0, MAX_DIMENSIONS);
    // One column per distinct dimension name; a repeated name charts the same column again.
    this.columnOf = this.rubric.map((dim) => {
      const known = this.byName.get(dim.dimension);
      if (known !== undefined) return known;
      this.byName.set(dim.dimension, this.byName.size);
      return this.byName.size - 1;
    });
    this.names = [...this.byName.keys()];
    this.measured = Array.from({ length: this.byName.size }, () => new SeriesColumns(capacity));
    this.seen = new Int32Array(this.byName.size).fill(0x7fffffff);
    this.total = new SeriesColumns(capacity);
    this.timeline = new TimelineColumns(capacity);
  }

  /** The next record in file order. */
  add(record: IterationRecord): void {
    const i = this.count;
    this.count += 1;
    const e = recordEpochOf(record);
    if (e === this.epoch) this.epochIterations += 1;
    const band = this.epochs[this.epochs.length - 1];
    if (band && band.n === e) band.last = record.n;
    else this.epochs.push({ n: e, first: record.n, last: record.n });
    const stall = isText(record.stall) ? record.stall : null;
    const verdict = isText(record.critic_verdict) ? record.critic_verdict : null;
    if (stall) pushNewest(this.stalls, { n: record.n, stall }, MAX_LISTED);
    if (verdict) {
      const brief = isText(record.critic_brief) ? record.critic_brief : null;
      pushNewest(this.verdicts, { n: record.n, verdict, brief }, MAX_LISTED);
    }
    this.timeline.push(record.n, e, textOf(record.outcome), stall, verdict);
    if (this.byName.size > 0) measureInto(record, this.byName, this.names, this.measured, this.seen, i);
    const weighted = record.evaluation?.weighted_total;
    if (isNumber(weighted)) this.total.push(record.n, weighted, record.evaluation?.verdict === 'fail');
    const raw = record as unknown as Record<string, unknown>;
    const usd = recordNumber(raw, 'cost_usd');
    if (usd !== null) this.cost.push(record.n, usd, false);
    addSpendOf(this.sums, raw);
    if (this.kind === 'repeat') {
      const row = repeatRow(record);
      if (row) pushNewest(this.repeats, row, MAX_LISTED);
    } else if (this.kind === 'work-order') addPhases(this.phases, record);
    else if (this.kind === 'run') pushNewest(this.newest, record, MAX_LISTED);
    this.last = record;
  }

  /** The model of the records added so far, for about `buckets` pixels of chart width. */
  finish(status: StatusPayload | null, buckets: number): OverviewModel {
    const { ledger, kind, epoch, epochs } = this;
    const dimensionSeries = this.measured.map((columns) => downsampleColumns(columns, buckets));
    const contract = ledger.contract ?? ({} as Ledger['contract']);
    const last = this.last;
    const run = kind === 'run' ? runRows(this.newest.slice(-MAX_LISTED)) : null;
    return {
      session: textOf(ledger.session),
      kind,
      purpose: textOf(contract.purpose),
      owner: textOf(contract.owner),
      status: textOf(ledger.status),
      finalOutcome: isText(ledger.final_outcome) ? ledger.final_outcome : null,
      epoch,
      iterations: this.count,
      epochIterations: this.epochIterations,
      iterationLimit: isNumber(contract.iteration_limit) ? contract.iteration_limit : null,
      lastTimestamp: last && isText(last.timestamp) ? last.timestamp : null,
      pendingBrief: isText(ledger.pending_brief?.brief_id) ? ledger.pending_brief.brief_id : null,
      attempts: kind === 'work-order' ? epoch : null,
      attemptCap: null,
      spend: spendLines(ledger, status, this.sums, this.epochIterations),
      dimensions: this.rubric.map((dim, d) => ({
        dimension: textOf(dim.dimension),
        direction: dim.direction === 'lower-is-better' ? 'lower-is-better' : 'higher-is-better',
        baseline: isNumber(dim.baseline) ? dim.baseline : null,
        target: isNumber(dim.target) ? dim.target : null,
        failureThreshold: isNumber(dim.failure_threshold) ? dim.failure_threshold : null,
        weight: isNumber(dim.weight) ? dim.weight : null,
        hardGate: dim.hard_gate === true,
        series: dimensionSeries[this.columnOf[d]!]!,
      })),
      dimensionsLeftOut: Math.max(0, (contract.quality_rubric?.length ?? 0) - MAX_DIMENSIONS),
      total: this.total.length === 0 ? null : downsampleColumns(this.total, buckets),
      cost: this.cost.length === 0 ? null : downsampleColumns(this.cost, buckets),
      timeline: timelineMarksOf(this.timeline, buckets),
      epochs: epochs.map((band) => ({ ...band })),
      stalls: this.stalls.slice(-MAX_LISTED),
      verdicts: this.verdicts.slice(-MAX_LISTED),
      kindColumns:
        kind === 'repeat'
          ? ['classification', 'change metric', 'resolution']
          : kind === 'run'
            ? ['attempt', 'phases', 'verdict', 'outcome']
            : kind === 'work-order'
              ? ['attempt', 'phases', 'ended']
              : [],
      kindRows:
        kind === 'repeat'
          ? this.repeats.slice(-MAX_LISTED)
          : run
            ? run.rows
            : kind === 'work-order'
              ? workOrderRows(ledger, this.phases, epochs)
              : [],
      runAttempts: run ? run.attempts : [],
      receipts: [],
      kindNotes: [],
    };
  }
}

/** One record in words, for the side panel: only the keys a person reads, texts cut. */
export function recordInWords(record: IterationRecord): { key: string; value: string | string[] }[] {
  const rows: { key: string; value: string | string[] }[] = [];
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.slice(0, 100).map(textOf) : []);
  const add = (key: string, value: unknown): void => {
    if (Array.isArray(value)) {
      const items = list(value);
      if (items.length > 0) rows.push({ key, value: items });
    } else if (value !== null && value !== undefined && value !== '')
      rows.push({ key, value: textOf(value) });
  };
  add('outcome', record.outcome);
  if (record.reported_outcome !== record.outcome) add('reported outcome', record.reported_outcome);
  add('timestamp', record.timestamp);
  add('epoch', record.epoch);
  add('stall', record.stall);
  add('decision', record.decision);
  add('critic verdict', record.critic_verdict);
  add('critic next', record.critic_next);
  add('critic brief', record.critic_brief);
  if (record.evaluation && isNumber(record.evaluation.weighted_total))
    add('weighted total', `${record.evaluation.weighted_total} (${textOf(record.evaluation.verdict)})`);
  if (record.measurements && typeof record.measurements === 'object')
    add(
      'measurements',
      Object.entries(record.measurements)
        .slice(0, 100)
        .map(([k, v]) => `${k} = ${textOf(v)}`),
    );
  add('actions', record.actions);
  add('files changed', record.files_changed);
  add('commands run', record.commands_run);
  add('evidence paths', record.evidence_paths);
  add('evidence', record.evidence);
  add('note', record.note);
  add('blocker', record.blocker);
  add('recommended next', record.recommended_next);
  const raw = record as unknown as Record<string, unknown>;
  for (const key of ['cost_usd', 'tokens_in', 'tokens_out']) add(key.replace('_', ' '), raw[key]);
  if (typeof raw.repeat === 'object' && raw.repeat !== null) {
    const r = raw.repeat as Record<string, unknown>;
    add('classification', r.classification);
    add('change metric', r.change_metric);
  }
  return rows;
}
