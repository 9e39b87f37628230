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
 * `points` (in iteration order) in at most `buckets` buckets of consecutive points, each kept as
 * its minimum and maximum (two points, or one when they are the same point). Series short enough
 * to draw whole are returned whole. `marked(i)` flags a bucket (a failed hard gate, say).
 */
export function downsample(
  points: readonly SeriesPoint[],
  buckets: number,
  marked: (index: number) => boolean = () => false,
): Series {
  const count = points.length;
  const limit = clampBuckets(buckets);
  if (count <= limit) {
    return {
      points: points.map((p) => ({ n: p.n, value: p.value })),
      spans: points.map((p, i) => ({ first: p.n, last: p.n, marked: marked(i) })),
      count,
    };
  }
  const out: SeriesPoint[] = [];
  const spans: BucketSpan[] = [];
  for (let b = 0; b < limit; b += 1) {
    const start = Math.floor((b * count) / limit);
    const end = Math.floor(((b + 1) * count) / limit); // exclusive; never empty since count > limit
    let lo = start;
    let hi = start;
    let flag = false;
    for (let i = start; i < end; i += 1) {
      const v = points[i]!.value;
      if (v < points[lo]!.value) lo = i;
      if (v > points[hi]!.value) hi = i;
      if (!flag && marked(i)) flag = true;
    }
    const first = Math.min(lo, hi);
    const second = Math.max(lo, hi);
    out.push({ n: points[first]!.n, value: points[first]!.value });
    if (second !== first) out.push({ n: points[second]!.n, value: points[second]!.value });
    spans.push({ first: points[start]!.n, last: points[end - 1]!.n, marked: flag });
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
 * The outcome timeline in at most `buckets` marks. A bucket never spans two epochs' worth of
 * colour wrongly: its epoch is its first iteration's, and the epoch bands are computed apart.
 */
export function timelineMarks(items: readonly TimelineItem[], buckets: number): TimelineMark[] {
  const count = items.length;
  const limit = clampBuckets(buckets);
  const size = count <= limit ? 1 : count / limit;
  const marks: TimelineMark[] = [];
  const groups = count <= limit ? count : limit;
  for (let b = 0; b < groups; b += 1) {
    const start = Math.floor(b * size);
    const end = count <= limit ? b + 1 : Math.floor((b + 1) * size);
    let outcome = items[start]!.outcome;
    let stall: string | null = null;
    let verdict: string | null = null;
    let verdictN: number | null = null;
    for (let i = start; i < end; i += 1) {
      const item = items[i]!;
      if (urgency(item.outcome) < urgency(outcome)) outcome = item.outcome;
      if (stall === null && item.stall !== null) stall = item.stall;
      if (item.verdict !== null) {
        verdict = item.verdict;
        verdictN = item.n;
      }
    }
    marks.push({
      first: items[start]!.n,
      last: items[end - 1]!.n,
      epoch: items[start]!.epoch,
      outcome,
      stall,
      verdict,
      verdictN,
    });
  }
  return marks;
}
