// Downsampling for the overview's charts. A chart is a few hundred pixels wide; a ledger may hold
// 100,000 iterations. Each pixel bucket keeps the lowest and the highest value that fell in it, so
// a spike or a dip is never smoothed away, and each bucket names the first and last iteration it
// stands for, so every iteration is still represented. Pure: no clock, no I/O.

/** One plotted value: the iteration it came from and the value the ledger holds there. */
export interface SeriesPoint {
  readonly n: number;
  readonly value: number;
}

/** The iterations one bucket stands for (inclusive), and whether any of them is marked. */
export interface BucketSpan {
  readonly first: number;
  readonly last: number;
  readonly marked: boolean;
}

export interface Series {
  /** In iteration order; only values the input holds. */
  readonly points: SeriesPoint[];
  /** One per bucket, in order, covering every input point; equal to the points when not downsampled. */
  readonly spans: BucketSpan[];
  /** How many input points the series stands for. */
  readonly count: number;
}

/** Never fewer than this many buckets (a caller's 0 or NaN would hide everything). */
export const MIN_BUCKETS = 8;
/** Never more: the message to the webview stays small whatever the caller asks for. */
export const MAX_BUCKETS = 2_000;

export function clampBuckets(buckets: number): number {
  if (!Number.isFinite(buckets)) return MIN_BUCKETS;
  return Math.min(MAX_BUCKETS, Math.max(MIN_BUCKETS, Math.floor(buckets)));
}

/**
 * A numeric series as parallel typed columns, filled in one pass over a ledger. A ledger of
 * 100,000 iterations would otherwise make 100,000 small objects per chart only to throw them away
 * after downsampling; the columns grow by doubling and hold plain numbers.
 */
export class SeriesColumns {
  n: Float64Array;
  values: Float64Array;
  flags: Uint8Array;
  length = 0;

  constructor(capacity = 64) {
    const size = Math.max(1, capacity);
    this.n = new Float64Array(size);
    this.values = new Float64Array(size);
    this.flags = new Uint8Array(size);
  }

  push(n: number, value: number, flagged: boolean): void {
    if (this.length === this.n.length) this.grow();
    this.n[this.length] = n;
    this.values[this.length] = value;
    this.flags[this.length] = flagged ? 1 : 0;
    this.length += 1;
  }

  private grow(): void {
    const size = this.n.length * 2;
    const n = new Float64Array(size);
    const values = new Float64Array(size);
    const flags = new Uint8Array(size);
    n.set(this.n);
    values.set(this.values);
    flags.set(this.flags);
    this.n = n;
    this.values = values;
    this.flags = flags;
  }
}

/**
 * `points` (in iteration order) in at most `buckets` buckets of consecutive points, each kept as
 * its minimum and maximum (two points, or one when they are the same point). Series short enough
 * to draw whole are returned whole. `marked(i)` flags a bucket (a failed hard gate, say).
 */
export function downsample(
  points: readonly SeriesPoint[],
  buckets: number,
  marked: (index: number) => boolean = () => false,
): Series {
  const columns = new SeriesColumns(points.length);
  points.forEach((p, i) => columns.push(p.n, p.value, marked(i)));
  return downsampleColumns(columns, buckets);
}

/** `downsample` over columns: the only objects made are the ones the message carries. */
export function downsampleColumns(columns: SeriesColumns, buckets: number): Series {
  const { n, values, flags } = columns;
  const count = columns.length;
  const limit = clampBuckets(buckets);
  const out: SeriesPoint[] = [];
  const spans: BucketSpan[] = [];
  if (count <= limit) {
    for (let i = 0; i < count; i += 1) {
      out.push({ n: n[i]!, value: values[i]! });
      spans.push({ first: n[i]!, last: n[i]!, marked: flags[i] === 1 });
    }
    return { points: out, spans, count };
  }
  for (let b = 0; b < limit; b += 1) {
    const start = Math.floor((b * count) / limit);
    const end = Math.floor(((b + 1) * count) / limit); // exclusive; never empty since count > limit
    let lo = start;
    let hi = start;
    let loValue = values[start]!;
    let hiValue = loValue;
    let flag = 0;
    for (let i = start; i < end; i += 1) {
      const v = values[i]!;
      if (v < loValue) {
        lo = i;
        loValue = v;
      }
      if (v > hiValue) {
        hi = i;
        hiValue = v;
      }
      flag |= flags[i]!;
    }
    const first = Math.min(lo, hi);
    const second = Math.max(lo, hi);
    out.push({ n: n[first]!, value: values[first]! });
    if (second !== first) out.push({ n: n[second]!, value: values[second]! });
    spans.push({ first: n[start]!, last: n[end - 1]!, marked: flag === 1 });
  }
  return { points: out, spans, count };
}

/** Outcomes from the most to the least in need of a person: a bucket shows its most urgent. */
export const OUTCOME_URGENCY = ['escalate', 'stop', 'revise', 'pause', 'complete', 'continue'] as const;

export interface TimelineItem {
  readonly n: number;
  readonly epoch: number;
  readonly outcome: string;
  readonly stall: string | null;
  readonly verdict: string | null;
}

/** One mark of the outcome timeline: one iteration, or a bucket of them (first..last). */
export interface TimelineMark {
  readonly first: number;
  readonly last: number;
  readonly epoch: number;
  /** The most urgent outcome among the iterations of the mark. */
  readonly outcome: string;
  /** The first stall predicate among them, if any. */
  readonly stall: string | null;
  /** The last critic verdict among them, and its iteration. */
  readonly verdict: string | null;
  readonly verdictN: number | null;
}

function urgency(outcome: string): number {
  const i = (OUTCOME_URGENCY as readonly string[]).indexOf(outcome);
  return i === -1 ? OUTCOME_URGENCY.length : i;
}

/**
 * The timeline's input as columns: numbers in typed arrays, and each text as a code into a table
 * of the distinct texts (a ledger repeats a handful of outcomes, stalls and verdicts).
 */
export class TimelineColumns {
  readonly n: Float64Array;
  readonly epoch: Float64Array;
  readonly urgency: Uint8Array;
  /** Codes into `texts`; -1 for none. */
  readonly outcome: Int32Array;
  readonly stall: Int32Array;
  readonly verdict: Int32Array;
  readonly texts: string[] = [];
  private readonly codes = new Map<string, number>();
  length = 0;

  constructor(capacity: number) {
    const size = Math.max(1, capacity);
    this.n = new Float64Array(size);
    this.epoch = new Float64Array(size);
    this.urgency = new Uint8Array(size);
    this.outcome = new Int32Array(size);
    this.stall = new Int32Array(size);
    this.verdict = new Int32Array(size);
  }

  /** At most `capacity` pushes. */
  push(n: number, epoch: number, outcome: string, stall: string | null, verdict: string | null): void {
    const i = this.length;
    this.n[i] = n;
    this.epoch[i] = epoch;
    this.urgency[i] = urgency(outcome);
    this.outcome[i] = this.code(outcome);
    this.stall[i] = stall === null ? -1 : this.code(stall);
    this.verdict[i] = verdict === null ? -1 : this.code(verdict);
    this.length += 1;
  }

  private code(text: string): number {
    let code = this.codes.get(text);
    if (code === undefined) {
      code = this.texts.length;
      this.texts.push(text);
      this.codes.set(text, code);
    }
    return code;
  }
}

/**
 * The outcome timeline in at most `buckets` marks. A bucket never spans two epochs' worth of
 * colour wrongly: its epoch is its first iteration's, and the epoch bands are computed apart.
 */
export function timelineMarks(items: readonly TimelineItem[], buckets: number): TimelineMark[] {
  const columns = new TimelineColumns(items.length);
  for (const item of items) columns.push(item.n, item.epoch, item.outcome, item.stall, item.verdict);
  return timelineMarksOf(columns, buckets);
}

/** `timelineMarks` over columns. */
export function timelineMarksOf(columns: TimelineColumns, buckets: number): TimelineMark[] {
  const count = columns.length;
  const limit = clampBuckets(buckets);
  const marks: TimelineMark[] = [];
  const groups = Math.min(count, limit);
  for (let b = 0; b < groups; b += 1) {
    // Integer products, not b * (count / limit): the rounded ratio could drop the last iteration.
    const start = Math.floor((b * count) / groups);
    const end = Math.floor(((b + 1) * count) / groups);
    let most = start;
    let stall = -1;
    let verdictAt = -1;
    for (let i = start; i < end; i += 1) {
      if (columns.urgency[i]! < columns.urgency[most]!) most = i;
      if (stall === -1) stall = columns.stall[i]!;
      if (columns.verdict[i] !== -1) verdictAt = i;
    }
    const text = columns.texts;
    marks.push({
      first: columns.n[start]!,
      last: columns.n[end - 1]!,
      epoch: columns.epoch[start]!,
      outcome: text[columns.outcome[most]!]!,
      stall: stall === -1 ? null : text[stall]!,
      verdict: verdictAt === -1 ? null : text[columns.verdict[verdictAt]!]!,
      verdictN: verdictAt === -1 ? null : columns.n[verdictAt]!,
    });
  }
  return marks;
}
