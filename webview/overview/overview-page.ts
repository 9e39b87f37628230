// The session overview page: the header (purpose, owner, state, epoch, n / limit, spend), the
// outcome timeline, the weighted total, cost, one chart per rubric dimension, what the other loop
// kinds keep, and beside them the chosen iteration's record in words. A redraw after a write
// keeps which tables are open and which iteration is shown, and replaces the page in one step.
import type { KindRow } from '../../src/engine/overview/kind-row';
import type { DimensionChart, KindNote, OverviewModel } from '../../src/engine/overview/model';
import type { Series } from '../../src/engine/overview/series';
import type { CheckpointActionName, RecordLine } from '../../src/shared/overview-protocol';
import { RECORD_FIELDS, type RecordField } from '../../src/shared/record-fields';
import { checkpointButtons } from './checkpoint-actions';
import { h } from '../dom';
import { lineChart, timeline, type Reference } from './charts';
import { s, short } from './svg';
import { w } from './words';

export interface OverviewActions {
  showIteration(n: number): void;
  openBrief(n: number): void;
  checkpoint(n: number, action: CheckpointActionName): void;
}

const openTables = new Set<string>();
/** The pixels the charts are drawn at this render (see chartWidths). */
let widths = { wide: 360, narrow: 360 };
let detail: { n: number; lines: RecordLine[]; checkpoint: boolean } | null = null;
/** Where the detail pane's buttons post (set by each render). */
let detailActions: OverviewActions | null = null;

/** A spend line's label; an unknown key is shown as it is. */
function spendLabel(key: string): string {
  const labels: Record<string, string> = {
    iterations: w('Iterations'),
    usd: w('Cost (USD)'),
    tokens: w('Tokens'),
    time_ms: w('Time (ms)'),
    calls: w('Calls'),
    changed_lines: w('Changed lines'),
    files: w('Files'),
  };
  return labels[key] ?? key;
}

/** A kind table's column (the model names them in English); an unknown one is shown as it is. */
function kindColumn(column: string): string {
  const labels: Record<string, string> = {
    classification: w('classification'),
    change_metric: w('change metric'),
    resolution: w('resolution'),
    outcome: w('outcome'),
    verdict: w('verdict'),
    evidence: w('evidence'),
    attempt: w('attempt'),
    phases: w('phases'),
    ended: w('ended'),
  };
  return labels[column.replace(/ /g, '_')] ?? column;
}

function fact(term: string, value: string | Node): HTMLElement[] {
  return [h('dt', {}, term), h('dd', {}, value)];
}

function header(model: OverviewModel): HTMLElement {
  const limit = model.iterationLimit === null ? '—' : String(model.iterationLimit);
  const facts = h(
    'dl',
    { class: 'facts' },
    ...fact(w('Owner'), model.owner || '—'),
    ...fact(w('Status'), model.finalOutcome ? `${model.status} (${model.finalOutcome})` : model.status),
    ...fact(w('Epoch'), String(model.epoch)),
    ...(model.attempts !== null
      ? fact(
          w('Attempts'),
          model.attemptCap !== null
            ? w('{0} / {1}', model.attempts, model.attemptCap)
            : String(model.attempts),
        )
      : []),
    ...fact(
      w('Iterations'),
      model.iterations !== model.epochIterations
        ? w('{0} / {1} this epoch · {2} in all', model.epochIterations, limit, model.iterations)
        : w('{0} / {1} this epoch', model.epochIterations, limit),
    ),
    ...fact(w('Last activity'), model.lastTimestamp ?? '—'),
    ...(model.pendingBrief ? fact(w('Waiting for a verdict on'), h('code', {}, model.pendingBrief)) : []),
  );
  const spend = h(
    'ul',
    { class: 'spend', 'aria-label': w('Budgets') },
    ...model.spend.map((line) => {
      const ratio = line.cap && line.cap > 0 ? Math.min(1, line.spent / line.cap) : null;
      const over = line.cap !== null && line.spent >= line.cap;
      const meter = h(
        'span',
        { class: `meter${over ? ' over' : ''}`, 'aria-hidden': 'true' },
        h('span', { class: 'fill' }),
      );
      if (ratio !== null) (meter.firstChild as HTMLElement).style.width = `${(ratio * 100).toFixed(1)}%`;
      return h(
        'li',
        { class: over ? 'over' : '' },
        h('span', { class: 'spend-label' }, spendLabel(line.key)),
        h(
          'span',
          { class: 'spend-value' },
          `${short(line.spent)} / ${line.cap === null ? w('no cap') : short(line.cap)}`,
        ),
        ratio !== null ? meter : null,
      );
    }),
  );
  return h(
    'header',
    { class: 'ov-header' },
    h(
      'h1',
      {},
      w('Overview'),
      ' ',
      h('code', { id: 'ov-session' }, model.session),
      ' ',
      h('span', { class: 'badge' }, model.kind),
    ),
    h('p', { class: 'purpose' }, model.purpose),
    h('div', { class: 'header-row' }, facts, spend),
  );
}

function tableToggle(id: string, caption: string, head: string[], rows: (string | Node)[][]): HTMLElement[] {
  const open = openTables.has(id);
  const table = h(
    'table',
    { class: 'numbers', id: `${id}-table`, hidden: !open },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...head.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c))))),
  );
  const button = h(
    'button',
    {
      class: 'link toggle',
      type: 'button',
      'aria-expanded': open ? 'true' : 'false',
      'aria-controls': `${id}-table`,
    },
    open ? w('Hide table') : w('Show table'),
  );
  button.addEventListener('click', () => {
    const nowOpen = table.hidden;
    table.hidden = !nowOpen;
    if (nowOpen) openTables.add(id);
    else openTables.delete(id);
    button.setAttribute('aria-expanded', nowOpen ? 'true' : 'false');
    button.textContent = nowOpen ? w('Hide table') : w('Show table');
  });
  return [button, table];
}

function iterationButton(n: number, actions: OverviewActions, label = `#${n}`): HTMLButtonElement {
  const b = h('button', { class: 'link', type: 'button', 'data-n': n }, label);
  b.addEventListener('click', () => actions.showIteration(n));
  return b;
}

function seriesRows(series: Series, actions: OverviewActions): (string | Node)[][] {
  if (series.points.length === series.spans.length)
    return series.points.map((p) => [iterationButton(p.n, actions), short(p.value)]);
  // Downsampled: each row is a bucket and its lowest and highest value.
  let k = 0;
  return series.spans.map((span) => {
    const inSpan = [];
    while (k < series.points.length && series.points[k]!.n <= span.last)
      inSpan.push(series.points[k++]!.value);
    return [
      `#${span.first}–#${span.last}`,
      inSpan.length ? `${short(Math.min(...inSpan))} … ${short(Math.max(...inSpan))}` : '—',
    ];
  });
}

/** The series in one sentence; `empty` when it has no value yet. */
function describe(series: Series, empty: string): string {
  if (series.points.length === 0) return empty;
  const values = series.points.map((p) => p.value);
  const last = series.points[series.points.length - 1]!;
  const [lo, hi, end] = [short(Math.min(...values)), short(Math.max(...values)), short(last.value)];
  const first = series.points[0]!.n;
  return series.points.length === series.spans.length
    ? w(
        '{0} values from #{1} to #{2}; lowest {3}, highest {4}, last {5}.',
        series.count,
        first,
        last.n,
        lo,
        hi,
        end,
      )
    : w(
        '{0} values from #{1} to #{2} ({3} buckets, each keeping its lowest and highest value); lowest {4}, highest {5}, last {6}.',
        series.count,
        first,
        last.n,
        series.spans.length,
        lo,
        hi,
        end,
      );
}

function dimensionFigure(
  dim: DimensionChart,
  index: number,
  model: OverviewModel,
  actions: OverviewActions,
): HTMLElement {
  const id = `dim-${index}`;
  const higher = dim.direction === 'higher-is-better';
  const references: Reference[] = [];
  if (dim.baseline !== null)
    references.push({ label: w('baseline'), value: dim.baseline, kind: 'ref-baseline' });
  if (dim.target !== null) references.push({ label: w('target'), value: dim.target, kind: 'ref-target' });
  if (dim.failureThreshold !== null)
    references.push({ label: w('failure threshold'), value: dim.failureThreshold, kind: 'ref-threshold' });
  const arrow = higher ? w('↑ higher is better') : w('↓ lower is better');
  const title = dim.hardGate
    ? w('{0} ({1}, hard gate)', dim.dimension, arrow)
    : w('{0} ({1})', dim.dimension, arrow);
  const refsText = references.map((r) => `${r.label} ${short(r.value)}`).join(', ');
  const svg = lineChart({
    id,
    title,
    description: `${describe(dim.series, w('No measurements recorded yet.'))} ${refsText}.${dim.series.spans.some((s) => s.marked) ? ` ${w('Triangles mark iterations where the hard gate failed.')}` : ''}`,
    series: dim.series,
    ...domain(model),
    references,
    failing:
      dim.failureThreshold === null
        ? undefined
        : { side: higher ? 'below' : 'above', threshold: dim.failureThreshold },
    onPick: actions.showIteration,
    width: widths.narrow,
  });
  return h(
    'figure',
    { class: 'dim' },
    h(
      'figcaption',
      {},
      h('span', { class: 'dim-name' }, dim.dimension),
      ' ',
      h('span', { class: 'direction' }, arrow),
      dim.hardGate ? h('span', { class: 'badge gate' }, w('hard gate')) : null,
      dim.weight !== null ? h('span', { class: 'muted' }, ` ${w('weight {0}', short(dim.weight))}`) : null,
    ),
    svg,
    legend(references),
    ...tableToggle(
      id,
      w('{0} per iteration', dim.dimension),
      [w('Iteration'), w('Measured')],
      seriesRows(dim.series, actions),
    ),
  );
}

function legend(references: Reference[]): HTMLElement {
  return h(
    'ul',
    { class: 'legend' },
    h('li', {}, h('span', { class: 'swatch sw-series', 'aria-hidden': 'true' }), w('measured')),
    ...references.map((r) =>
      h(
        'li',
        {},
        h('span', { class: `swatch sw-${r.kind}`, 'aria-hidden': 'true' }),
        `${r.label} ${short(r.value)}`,
      ),
    ),
  );
}

function seriesFigure(
  id: string,
  heading: string,
  series: Series | null,
  model: OverviewModel,
  actions: OverviewActions,
  what: string,
  empty: string,
): HTMLElement | null {
  if (series === null) return null;
  const svg = lineChart({
    id,
    title: heading,
    description:
      describe(series, empty) +
      (series.spans.some((s) => s.marked) ? ` ${w('Triangles mark failing verdicts.')}` : ''),
    series,
    ...domain(model),
    references: [],
    onPick: actions.showIteration,
    width: widths.narrow,
  });
  return h(
    'figure',
    { class: 'dim', id: `${id}-figure` },
    h('figcaption', {}, h('span', { class: 'dim-name' }, heading)),
    svg,
    ...tableToggle(id, heading, [w('Iteration'), what], seriesRows(series, actions)),
  );
}

const OUTCOMES = ['continue', 'complete', 'revise', 'pause', 'stop', 'escalate'];

function timelineSection(model: OverviewModel, actions: OverviewActions): HTMLElement {
  const svg = timeline({
    id: 'timeline',
    title: w('Outcome timeline'),
    description: w(
      '{0} iterations in {1} epoch(s); {2} stall(s); {3} critic verdict(s). Triangles above mark stalls, dots below mark critic verdicts.',
      model.iterations,
      model.epochs.length,
      model.stalls.length,
      model.verdicts.length,
    ),
    marks: model.timeline,
    epochs: model.epochs,
    ...domain(model),
    onPick: actions.showIteration,
    onVerdict: actions.openBrief,
    width: widths.wide,
  });
  const verdicts = model.verdicts.slice(-20).map((v) => {
    const open = h('button', { class: 'link', type: 'button', disabled: v.brief === null }, w('open brief'));
    open.addEventListener('click', () => actions.openBrief(v.n));
    return h('li', {}, iterationButton(v.n, actions), ` ${v.verdict} `, v.brief ? open : null);
  });
  const stalls = model.stalls
    .slice(-20)
    .map((st) => h('li', {}, iterationButton(st.n, actions), ` ${st.stall}`));
  return h(
    'section',
    { class: 'block', id: 'timeline-section', 'aria-labelledby': 'timeline-h' },
    h('h2', { id: 'timeline-h' }, w('Outcome timeline')),
    svg,
    h(
      'ul',
      { class: 'legend' },
      ...OUTCOMES.map((o) => h('li', {}, h('span', { class: `swatch o-${o}`, 'aria-hidden': 'true' }), o)),
      h('li', {}, w('▲ stall')),
      h('li', {}, w('● critic verdict')),
    ),
    h(
      'div',
      { class: 'lists' },
      verdicts.length
        ? h(
            'div',
            {},
            h('h3', {}, w('Critic verdicts')),
            h('ul', { class: 'plain', id: 'verdict-list' }, ...verdicts),
          )
        : null,
      stalls.length ? h('div', {}, h('h3', {}, w('Stalls')), h('ul', { class: 'plain' }, ...stalls)) : null,
    ),
    ...tableToggle(
      'timeline',
      w('Outcome per iteration'),
      [w('Iterations'), w('Epoch'), w('Outcome'), w('Stall'), w('Verdict')],
      model.timeline.map((m) => [
        m.first === m.last ? iterationButton(m.first, actions) : `#${m.first}–#${m.last}`,
        String(m.epoch),
        m.outcome,
        m.stall ?? '',
        m.verdict ?? '',
      ]),
    ),
  );
}

/** Why a run's or work order's rows show only what the ledger has. */
function noteText(note: KindNote): string {
  const run = note.runId ?? '';
  switch (note.note) {
    case 'run-folder-missing':
      return w('Run {0}: its folder is missing or unreadable; phases and receipt are not shown.', run);
    case 'receipt-missing':
      return w('Run {0}: no final receipt yet.', run);
    case 'receipt-malformed':
      return w('Run {0}: the final receipt cannot be read.', run);
    case 'work-order-missing':
      return w('The work-order file was not found in this folder; attempts are counted from the ledger.');
    case 'run-state-malformed':
      return w('The work order’s run-state file cannot be read; attempts are counted from the ledger.');
  }
}

/** One bar per phase, its length its share of the longest phase shown; the cell's text says the same. */
function phaseBars(row: KindRow, longest: number): SVGSVGElement | null {
  const phases = row.phases?.filter((p) => p.ms !== null) ?? [];
  if (phases.length === 0 || longest <= 0) return null;
  const width = 160;
  const bar = 6;
  const gap = 2;
  return s(
    'svg',
    {
      class: 'phase-bars',
      width,
      height: phases.length * (bar + gap),
      'aria-hidden': 'true',
      focusable: 'false',
    },
    ...phases.map((p, i) =>
      s('rect', {
        class: `phase phase-${p.phase}`,
        x: 0,
        y: i * (bar + gap),
        width: Math.max(1, Math.round(((p.ms as number) / longest) * width)),
        height: bar,
      }),
    ),
  );
}

function kindSection(model: OverviewModel, actions: OverviewActions): HTMLElement | null {
  const notes = [
    ...model.receipts.map((r) =>
      h(
        'p',
        { class: 'receipt' },
        w('Run {0}: receipt verdict {1} ({2})', r.runId, r.verdict, r.stopReason),
        r.attemptsUsed !== null && r.maxAttempts !== null
          ? ` · ${w('{0} / {1} attempts', r.attemptsUsed, r.maxAttempts)}`
          : '',
      ),
    ),
    ...model.kindNotes.map((n) => h('p', { class: 'kind-note' }, noteText(n))),
  ];
  if (model.kindColumns.length === 0 || (model.kindRows.length === 0 && notes.length === 0)) return null;
  const heading =
    model.kind === 'repeat'
      ? w('Repeat: change per iteration')
      : model.kind === 'work-order'
        ? w('Work order: attempts')
        : w('Run: attempts');
  const longest = Math.max(0, ...model.kindRows.flatMap((r) => (r.phases ?? []).map((p) => p.ms ?? 0)));
  const phasesAt = model.kindColumns.indexOf('phases');
  const cell = (r: KindRow, c: string, i: number): HTMLElement => {
    const bars = model.kind === 'run' && i === phasesAt ? phaseBars(r, longest) : null;
    return bars ? h('td', {}, h('div', {}, c), bars) : h('td', {}, c);
  };
  return h(
    'section',
    { class: 'block', id: 'kind-section', 'aria-labelledby': 'kind-h' },
    h('h2', { id: 'kind-h' }, heading),
    ...notes,
    h(
      'table',
      { class: 'numbers' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, w('Iteration')),
          ...model.kindColumns.map((c) => h('th', { scope: 'col' }, kindColumn(c))),
        ),
      ),
      h(
        'tbody',
        {},
        ...model.kindRows.map((r) =>
          h('tr', {}, h('td', {}, iterationButton(r.n, actions)), ...r.cells.map((c, i) => cell(r, c, i))),
        ),
      ),
    ),
  );
}

function detailPane(): HTMLElement {
  const aside = h('aside', {
    class: 'detail',
    id: 'detail',
    'aria-labelledby': 'detail-h',
    'aria-live': 'polite',
  });
  fillDetail(aside);
  return aside;
}

const FIELDS = new Set<string>(RECORD_FIELDS);

/** A record field's name in the display language (a name the page does not know reads as sent). */
function fieldName(key: string): string {
  return FIELDS.has(key) ? w(key as RecordField) : key;
}

function fillDetail(aside: HTMLElement): void {
  if (!detail) {
    aside.replaceChildren(
      h('h2', { id: 'detail-h' }, w('Iteration')),
      h('p', { class: 'muted' }, w('Click an iteration on a chart or the timeline to read its record here.')),
    );
    return;
  }
  const rows = detail.lines.flatMap((line) => [
    h('dt', {}, fieldName(line.key)),
    h(
      'dd',
      {},
      Array.isArray(line.value)
        ? h('ul', { class: 'plain' }, ...line.value.map((v) => h('li', {}, v)))
        : line.value,
    ),
  ]);
  aside.replaceChildren(
    h('h2', { id: 'detail-h' }, w('Iteration #{0}', detail.n)),
    h('dl', { class: 'record' }, ...rows),
    ...(detail.checkpoint && detailActions ? [checkpointButtons(detail.n, detailActions.checkpoint)] : []),
  );
}

export function showDetail(n: number, lines: RecordLine[], checkpoint = false): void {
  detail = { n, lines, checkpoint };
  const aside = document.getElementById('detail');
  if (aside) fillDetail(aside);
}

/**
 * How wide the timeline (`wide`) and each small chart (`narrow`) are drawn, in CSS pixels, from the
 * window's width and the page's grid (overview.css: 20px padding, a 320px record pane beside the
 * charts above 760px, small charts in columns of at least 300px with 16px gaps). A chart is drawn
 * at its real width, so its labels stay at their font size whatever the width or iteration count.
 */
function chartWidths(): { wide: number; narrow: number } {
  const page = Math.max(240, document.documentElement.clientWidth - 40);
  const column = window.innerWidth > 760 ? page - 340 : page;
  const columns = Math.max(1, Math.floor((column + 16) / 316));
  const narrow = Math.floor((column - 16 * (columns - 1)) / columns);
  return { wide: Math.max(240, Math.min(1100, column)), narrow: Math.max(240, Math.min(560, narrow)) };
}

/**
 * The iterations every chart spans: all of them, or on a first look at a long ledger the newest
 * ones it holds (else they would crowd into a sliver at the right edge).
 */
function domain(model: OverviewModel): { firstN: number; lastN: number } {
  if (model.partial) return { firstN: model.partial.firstShown, lastN: model.partial.lastShown };
  return { firstN: 1, lastN: Math.max(1, model.iterations) };
}

/** On a first look at a long ledger: which iterations the charts hold until the rest is read. */
function partialNote(model: OverviewModel): HTMLElement | null {
  const partial = model.partial;
  if (!partial) return null;
  const text =
    partial.total === null
      ? w(
          'Showing the newest {0} iterations (from #{1}): the rest of the ledger is being read…',
          partial.shown,
          partial.firstShown,
        )
      : w(
          'Showing iterations #{0}–#{1} of {2}: the rest of the ledger is being read…',
          partial.firstShown,
          partial.lastShown,
          partial.total,
        );
  return h('p', { class: 'partial', role: 'status', id: 'ov-partial' }, text);
}

export function renderOverview(root: HTMLElement, model: OverviewModel, actions: OverviewActions): void {
  if (detail && detail.n > model.iterations) detail = null;
  detailActions = actions;
  widths = chartWidths();
  const dims = model.dimensions.map((d, i) => dimensionFigure(d, i, model, actions));
  const charts = h(
    'div',
    { class: 'charts' },
    model.iterations === 0
      ? h('p', { class: 'muted' }, w('No iterations recorded yet.'))
      : timelineSection(model, actions),
    model.total || model.cost
      ? h(
          'section',
          { class: 'block', id: 'trends-section', 'aria-labelledby': 'trends-h' },
          h('h2', { id: 'trends-h' }, w('Trends')),
          h(
            'div',
            { class: 'dims' },
            seriesFigure(
              'total',
              w('Weighted total'),
              model.total,
              model,
              actions,
              w('Weighted total'),
              w('No weighted total recorded yet.'),
            ),
            seriesFigure(
              'cost',
              w('Cost per iteration (USD)'),
              model.cost,
              model,
              actions,
              w('Cost (USD)'),
              w('No cost recorded yet.'),
            ),
          ),
        )
      : null,
    dims.length
      ? h(
          'section',
          { class: 'block', id: 'rubric-section', 'aria-labelledby': 'rubric-h' },
          h('h2', { id: 'rubric-h' }, w('Rubric')),
          h('div', { class: 'dims' }, ...dims),
          model.dimensionsLeftOut
            ? h('p', { class: 'muted' }, w('{0} more dimensions are not charted.', model.dimensionsLeftOut))
            : null,
        )
      : null,
    kindSection(model, actions),
  );
  // One replacement: the page never goes blank between two frames, and the scroll position stays.
  const scroll = window.scrollY;
  const note = partialNote(model);
  const layout = h('div', { class: 'layout' }, charts, detailPane());
  root.replaceChildren(...(note ? [header(model), note, layout] : [header(model), layout]));
  if (window.scrollY !== scroll) window.scrollTo(0, scroll);
}

export function renderProblem(root: HTMLElement, session: string, reason: string): void {
  root.replaceChildren(
    h(
      'header',
      { class: 'ov-header' },
      h('h1', {}, w('Overview'), ' ', h('code', { id: 'ov-session' }, session)),
    ),
    h(
      'div',
      { class: 'problem', role: 'alert', id: 'problem' },
      h('h2', {}, w('This ledger cannot be shown')),
      h('p', {}, reason),
    ),
  );
}
