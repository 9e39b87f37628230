// The overview's series builder: hand-computed cases, then properties over random series — every
// plotted value is a value of the input at that iteration, every iteration falls in exactly one
// bucket, each bucket keeps its minimum and maximum, and the output never exceeds two points per
// bucket whatever the input's length.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  clampBuckets,
  downsample,
  MAX_BUCKETS,
  timelineMarks,
  type SeriesPoint,
  type TimelineItem,
} from '../../../src/engine/overview/series';

const pts = (...values: number[]): SeriesPoint[] => values.map((value, i) => ({ n: i + 1, value }));

describe('overview series: downsample', () => {
  it('returns a short series whole, one span per point', () => {
    const s = downsample(pts(3, 1, 2), 10);
    assert.deepEqual(s.points, pts(3, 1, 2));
    assert.deepEqual(
      s.spans.map((x) => [x.first, x.last]),
      [
        [1, 1],
        [2, 2],
        [3, 3],
      ],
    );
    assert.equal(s.count, 3);
  });

  it('keeps the minimum and the maximum of each bucket, in iteration order (hand-computed)', () => {
    // 16 points into 8 buckets of two: each bucket is its two points, lower n first.
    const values = [5, 1, 2, 9, 4, 4, 0, 7, 3, 8, 6, 6, 1, 2, 9, 0];
    const s = downsample(pts(...values), 8);
    assert.deepEqual(
      s.points.map((p) => [p.n, p.value]),
      [
        [1, 5],
        [2, 1],
        [3, 2],
        [4, 9],
        [5, 4], // equal values: one point stands for the bucket
        [7, 0],
        [8, 7],
        [9, 3],
        [10, 8],
        [11, 6],
        [13, 1],
        [14, 2],
        [15, 9],
        [16, 0],
      ],
    );
    assert.deepEqual(
      s.spans.map((x) => [x.first, x.last]),
      [
        [1, 2],
        [3, 4],
        [5, 6],
        [7, 8],
        [9, 10],
        [11, 12],
        [13, 14],
        [15, 16],
      ],
    );
  });

  it('marks a bucket when any of its points is marked, even one that is not plotted', () => {
    const values = Array.from({ length: 32 }, (_, i) => i % 4);
    const s = downsample(pts(...values), 8, (i) => i === 5);
    assert.deepEqual(
      s.spans.map((x) => x.marked),
      [false, true, false, false, false, false, false, false],
    );
  });

  it('bounds the bucket count whatever the caller asks', () => {
    assert.equal(clampBuckets(0), 8);
    assert.equal(clampBuckets(Number.NaN), 8);
    assert.equal(clampBuckets(1e9), MAX_BUCKETS);
    const s = downsample(pts(...Array.from({ length: 100_000 }, (_, i) => Math.sin(i))), 1e9);
    assert.ok(s.points.length <= 2 * MAX_BUCKETS);
  });

  it('properties: values from the ledger, every iteration covered once, extrema kept', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 0, maxLength: 600 }),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 5 }),
        (values, buckets, stride) => {
          // Iterations need not be consecutive (a dimension measured only now and then).
          const input = values.map((value, i) => ({ n: 1 + i * stride, value }));
          const byN = new Map(input.map((p) => [p.n, p.value]));
          const s = downsample(input, buckets);
          const limit = clampBuckets(buckets);
          // Every plotted value is the ledger's value at that iteration.
          for (const p of s.points) assert.ok(Object.is(byN.get(p.n), p.value), `point ${p.n}`);
          // Points stay in iteration order.
          for (let i = 1; i < s.points.length; i += 1) assert.ok(s.points[i - 1]!.n < s.points[i]!.n);
          // Spans partition the input: contiguous, in order, every iteration in exactly one span.
          let k = 0;
          for (const span of s.spans) {
            assert.equal(span.first, input[k]!.n);
            while (k < input.length && input[k]!.n <= span.last) k += 1;
            assert.equal(input[k - 1]!.n, span.last);
          }
          assert.equal(k, input.length);
          assert.ok(s.spans.length <= limit);
          assert.ok(s.points.length <= 2 * s.spans.length);
          // Each span's minimum and maximum are plotted, and so the series' extrema.
          for (const span of s.spans) {
            const inSpan = input.filter((p) => p.n >= span.first && p.n <= span.last).map((p) => p.value);
            const plotted = s.points.filter((p) => p.n >= span.first && p.n <= span.last).map((p) => p.value);
            assert.ok(plotted.includes(Math.min(...inSpan)));
            assert.ok(plotted.includes(Math.max(...inSpan)));
          }
          assert.equal(s.count, input.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('overview series: timeline marks', () => {
  const item = (n: number, outcome: string, extra: Partial<TimelineItem> = {}): TimelineItem => ({
    n,
    epoch: 1,
    outcome,
    stall: null,
    verdict: null,
    ...extra,
  });

  it('gives one mark per iteration when they fit', () => {
    const marks = timelineMarks([item(1, 'continue'), item(2, 'complete', { verdict: 'PASS' })], 100);
    assert.deepEqual(
      marks.map((m) => [m.first, m.last, m.outcome, m.verdict, m.verdictN]),
      [
        [1, 1, 'continue', null, null],
        [2, 2, 'complete', 'PASS', 2],
      ],
    );
  });

  it('shows a bucket by its most urgent outcome, its first stall and its last verdict', () => {
    const items = Array.from({ length: 80 }, (_, i) => item(i + 1, 'continue'));
    items[12] = item(13, 'escalate', { stall: 'repeated-error' });
    items[14] = item(15, 'revise', { verdict: 'REVISE' });
    const marks = timelineMarks(items, 8);
    assert.equal(marks.length, 8);
    assert.deepEqual([marks[1]!.first, marks[1]!.last], [11, 20]);
    assert.equal(marks[1]!.outcome, 'escalate');
    assert.equal(marks[1]!.stall, 'repeated-error');
    assert.deepEqual([marks[1]!.verdict, marks[1]!.verdictN], ['REVISE', 15]);
    assert.equal(marks[0]!.outcome, 'continue');
  });

  it('keeps the last iteration where count / buckets rounds down (805 into 327)', () => {
    const items = Array.from({ length: 805 }, (_, i) => item(i + 1, 'continue'));
    const marks = timelineMarks(items, 327);
    assert.equal(marks.length, 327);
    assert.equal(marks[marks.length - 1]!.last, 805);
  });

  it('property: every iteration is in exactly one mark, in order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 500 }), (count, buckets) => {
        const items = Array.from({ length: count }, (_, i) => item(i + 1, 'continue'));
        const marks = timelineMarks(items, buckets);
        let next = 1;
        for (const m of marks) {
          assert.equal(m.first, next);
          assert.ok(m.last >= m.first);
          next = m.last + 1;
        }
        assert.equal(next, count + 1);
        assert.ok(marks.length <= clampBuckets(buckets));
      }),
    );
  });
});
