// The overview's charts: a line chart per rubric dimension (baseline, target and failure
// threshold as lines, the failing side shaded, failed hard gates marked, the better direction
// named in the title), the same chart for the weighted total and for cost, the outcome timeline,
// and the dashboard's sparkline. Each chart is `role="img"` with a <title> and <desc>, and comes
// with a table of its numbers (the toggle is in overview-page.ts).
import type { TimelineMark } from '../../src/engine/overview/series';
import type { Series } from '../../src/engine/overview/series';
import { s, short } from './svg';
import { w } from './words';

/** The drawn width when the page gives none; a page passes the pixels a chart is drawn at, so
 * that one unit of the viewBox is one CSS pixel and the labels keep their size at any width. */
export const DEFAULT_WIDTH = 360;
const HEIGHT = 130;
const PAD = { left: 40, right: 10, top: 10, bottom: 20 };

export interface Reference {
  readonly label: string;
  readonly value: number;
  /** CSS class: ref-baseline, ref-target, ref-threshold. */
  readonly kind: string;
}

export interface LineChartSpec {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly series: Series;
  /** The x domain: every chart of one overview spans the same iterations. */
  readonly firstN: number;
  readonly lastN: number;
  readonly references: Reference[];
  /** The side that fails, shaded: values below (`below`) or above the threshold. */
  readonly failing?: { readonly side: 'below' | 'above'; readonly threshold: number };
  readonly markLabel?: string;
  readonly onPick: (n: number) => void;
  /** The width in CSS pixels the chart is drawn at (WIDTH when not given). */
  readonly width?: number;
}

function xScale(first: number, last: number, width: number): (n: number) => number {
  const span = Math.max(1, last - first);
  return (n) => PAD.left + ((n - first) / span) * (width - PAD.left - PAD.right);
}

/** The svg element of a chart drawn `width` pixels wide: never scaled up past that. */
function chartSvg(id: string, width: number, height: number, className: string): SVGSVGElement {
  const svg = s('svg', {
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-labelledby': `${id}-title ${id}-desc`,
    class: className,
    id,
  });
  svg.style.maxWidth = `${width}px`;
  return svg;
}

export function lineChart(spec: LineChartSpec): SVGSVGElement {
  const values = [...spec.series.points.map((p) => p.value), ...spec.references.map((r) => r.value)];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
    lo = 0;
    hi = 1;
  }
  if (lo === hi) {
    // One value: a range around it of its own scale (a single $0.03 is not drawn on −0.97…1.03).
    const around = Math.abs(lo) * 0.1 || 1;
    lo -= around;
    hi += around;
  }
  const pad = (hi - lo) * 0.08;
  lo -= pad;
  hi += pad;
  const WIDTH = spec.width ?? DEFAULT_WIDTH;
  // One iteration: its point in the middle, not on the axis.
  const single = spec.lastN === spec.firstN;
  const x = single ? xScale(spec.firstN - 1, spec.firstN + 1, WIDTH) : xScale(spec.firstN, spec.lastN, WIDTH);
  const y = (v: number) => PAD.top + ((hi - v) / (hi - lo)) * (HEIGHT - PAD.top - PAD.bottom);
  const titleId = `${spec.id}-title`;
  const descId = `${spec.id}-desc`;
  const svg = chartSvg(spec.id, WIDTH, HEIGHT, 'chart');
  svg.append(s('title', { id: titleId }, spec.title), s('desc', { id: descId }, spec.description));
  const plotBottom = HEIGHT - PAD.bottom;
  if (spec.failing) {
    const t = Math.min(Math.max(spec.failing.threshold, lo), hi);
    const top = spec.failing.side === 'below' ? y(t) : PAD.top;
    const bottom = spec.failing.side === 'below' ? plotBottom : y(t);
    if (bottom > top)
      svg.append(
        s('rect', {
          class: 'failing-zone',
          x: PAD.left,
          y: top,
          width: WIDTH - PAD.left - PAD.right,
          height: bottom - top,
        }),
      );
  }
  // Axes: min and max of the value domain, first and last iteration.
  svg.append(
    s('line', { class: 'axis', x1: PAD.left, x2: WIDTH - PAD.right, y1: plotBottom, y2: plotBottom }),
    s('line', { class: 'axis', x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: plotBottom }),
    s('text', { class: 'tick', x: PAD.left - 4, y: y(hi - pad) + 4, 'text-anchor': 'end' }, short(hi - pad)),
    s('text', { class: 'tick', x: PAD.left - 4, y: y(lo + pad) + 4, 'text-anchor': 'end' }, short(lo + pad)),
    s(
      'text',
      {
        class: 'tick',
        x: single ? x(spec.firstN) : PAD.left,
        y: HEIGHT - 5,
        'text-anchor': single ? 'middle' : 'start',
      },
      `#${spec.firstN}`,
    ),
  );
  if (!single)
    svg.append(
      s(
        'text',
        { class: 'tick', x: WIDTH - PAD.right, y: HEIGHT - 5, 'text-anchor': 'end' },
        `#${spec.lastN}`,
      ),
    );
  for (const ref of spec.references) {
    svg.append(
      s('line', {
        class: `ref ${ref.kind}`,
        x1: PAD.left,
        x2: WIDTH - PAD.right,
        y1: y(ref.value),
        y2: y(ref.value),
      }),
    );
  }
  const points = spec.series.points;
  if (points.length > 0) {
    const d = points
      .map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.n).toFixed(1)},${y(p.value).toFixed(1)}`)
      .join('');
    svg.append(s('path', { class: 'series', d }));
    if (points.length <= 60)
      for (const p of points) svg.append(s('circle', { class: 'dot', cx: x(p.n), cy: y(p.value), r: 2.5 }));
  }
  for (const span of spec.series.spans) {
    if (!span.marked) continue;
    const cx = x((span.first + span.last) / 2);
    svg.append(
      s('path', {
        class: 'gate-mark',
        d: `M${cx - 4},${plotBottom}L${cx + 4},${plotBottom}L${cx},${plotBottom - 7}Z`,
      }),
    );
  }
  pickable(svg, spec.firstN, spec.lastN, spec.onPick, WIDTH);
  return svg;
}

/** A click on the chart picks the nearest iteration. */
function pickable(
  svg: SVGSVGElement,
  first: number,
  last: number,
  onPick: (n: number) => void,
  width: number,
): void {
  svg.addEventListener('click', (event) => {
    const box = svg.getBoundingClientRect();
    if (box.width === 0) return;
    const px = ((event.clientX - box.left) / box.width) * width;
    const ratio = (px - PAD.left) / (width - PAD.left - PAD.right);
    const n = Math.round(first + Math.min(1, Math.max(0, ratio)) * (last - first));
    onPick(Math.max(first, Math.min(last, n)));
  });
}

export interface TimelineSpec {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly marks: TimelineMark[];
  readonly epochs: { n: number; first: number; last: number }[];
  readonly firstN: number;
  readonly lastN: number;
  readonly onPick: (n: number) => void;
  readonly onVerdict: (n: number) => void;
  /** The width in CSS pixels the timeline is drawn at (WIDTH when not given). */
  readonly width?: number;
}

const TL_HEIGHT = 74;

export function timeline(spec: TimelineSpec): SVGSVGElement {
  const WIDTH = spec.width ?? DEFAULT_WIDTH;
  const x = xScale(spec.firstN - 0.5, spec.lastN + 0.5, WIDTH);
  const titleId = `${spec.id}-title`;
  const descId = `${spec.id}-desc`;
  const svg = chartSvg(spec.id, WIDTH, TL_HEIGHT, 'chart timeline');
  svg.append(s('title', { id: titleId }, spec.title), s('desc', { id: descId }, spec.description));
  spec.epochs.forEach((band, i) => {
    const x0 = x(band.first - 0.5);
    const x1 = x(band.last + 0.5);
    svg.append(
      s('rect', {
        class: `epoch-band ${i % 2 === 0 ? 'even' : 'odd'}`,
        x: x0,
        y: 0,
        width: Math.max(1, x1 - x0),
        height: TL_HEIGHT - 14,
      }),
      s('text', { class: 'tick', x: x0 + 3, y: 11 }, w('epoch {0}', band.n)),
    );
  });
  for (const mark of spec.marks) {
    // A mark is at most 48 pixels wide per iteration, centred in its slot: a few iterations on a
    // wide page read as marks, not as one bar across the chart.
    const slot = x(mark.last + 0.5) - x(mark.first - 0.5);
    const w = Math.max(1.5, Math.min(48 * (mark.last - mark.first + 1), slot - 1));
    const x0 = x(mark.first - 0.5) + (slot - 1 - w) / 2;
    const rect = s('rect', { class: `mark o-${mark.outcome}`, x: x0 + 0.5, y: 22, width: w, height: 20 });
    rect.addEventListener('click', (e) => {
      e.stopPropagation();
      spec.onPick(mark.first);
    });
    svg.append(rect);
    const cx = x0 + w / 2 + 0.5;
    if (mark.stall) svg.append(s('path', { class: 'stall-mark', d: `M${cx - 4},14L${cx + 4},14L${cx},21Z` }));
    if (mark.verdict && mark.verdictN !== null) {
      const n = mark.verdictN;
      const dot = s('circle', { class: `verdict-mark v-${mark.verdict}`, cx, cy: 50, r: 4 });
      dot.addEventListener('click', (e) => {
        e.stopPropagation();
        spec.onVerdict(n);
      });
      svg.append(dot);
    }
  }
  svg.append(s('text', { class: 'tick', x: PAD.left, y: TL_HEIGHT - 2 }, `#${spec.firstN}`));
  if (spec.lastN !== spec.firstN)
    svg.append(
      s(
        'text',
        { class: 'tick', x: WIDTH - PAD.right, y: TL_HEIGHT - 2, 'text-anchor': 'end' },
        `#${spec.lastN}`,
      ),
    );
  return svg;
}

/** The dashboard's small trend line of the weighted total. */
export function sparkline(values: readonly number[], label: string): SVGSVGElement {
  const w = 80;
  const h = 20;
  const svg = s('svg', {
    viewBox: `0 0 ${w} ${h}`,
    role: 'img',
    'aria-label': label,
    class: 'sparkline',
    width: w,
    height: h,
  });
  svg.append(s('title', {}, label));
  if (values.length === 0) return svg;
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const step = values.length > 1 ? (w - 4) / (values.length - 1) : 0;
  const d = values
    .map(
      (v, i) =>
        `${i === 0 ? 'M' : 'L'}${(2 + i * step).toFixed(1)},${(h - 2 - ((v - lo) / span) * (h - 4)).toFixed(1)}`,
    )
    .join('');
  svg.append(s('path', { class: 'series', d }));
  return svg;
}
