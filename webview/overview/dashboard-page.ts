// The dashboard page: every session in one sortable table, filters by state and kind, loops that
// need a person first (the engine's order, src/engine/overview/dashboard.ts). A click on a row
// (or Enter on its session button) opens that session's overview.
import {
  filterRows,
  needsAttention,
  orderRows,
  type DashboardRow,
  type SortColumn,
} from '../../src/engine/overview/dashboard';
import { h } from '../dom';
import { sparkline } from './charts';
import { short } from './svg';
import { w } from './words';

export interface DashboardActions {
  openOverview(root: string, session: string): void;
}

let rows: DashboardRow[] = [];
let sort: { column: SortColumn; descending: boolean } = { column: 'lastActivity', descending: true };
let stateFilter = '';
let kindFilter = '';

/** The table's columns, labelled in the display language. */
function columns(): { column: SortColumn | null; label: string }[] {
  return [
    { column: 'session', label: w('Session') },
    { column: 'state', label: w('Status') },
    { column: 'lastActivity', label: w('Last activity') },
    { column: 'n', label: w('n / limit') },
    { column: 'lastOutcome', label: w('Last outcome') },
    { column: 'verdict', label: w('Verdict') },
    { column: 'usd', label: w('Spend') },
    { column: null, label: w('Weighted total') },
  ];
}

function flags(row: DashboardRow): HTMLElement[] {
  const out: HTMLElement[] = [];
  const flag = (text: string, cls: string) => out.push(h('span', { class: `badge ${cls}` }, text));
  if (row.state === 'broken') flag(w('unreadable'), 'warn');
  if (row.stalled) flag(w('stalled'), 'warn');
  if (row.escalated) flag(w('escalated'), 'warn');
  if (row.overBudget) flag(w('over budget'), 'warn');
  if (row.waitingForVerdict) flag(w('waiting for verdict'), 'info');
  return out;
}

function rowElement(row: DashboardRow, actions: DashboardActions): HTMLElement {
  const open = h('button', { class: 'link session-link', type: 'button' }, row.session);
  open.addEventListener('click', (e) => {
    e.stopPropagation();
    actions.openOverview(row.root, row.session);
  });
  const tr = h(
    'tr',
    { class: needsAttention(row) ? 'attention' : '', 'data-session': row.session },
    h('th', { scope: 'row' }, open, h('div', { class: 'muted small' }, `${row.folder} · ${row.kind}`)),
    h(
      'td',
      {},
      row.state,
      ' ',
      ...flags(row),
      row.problem ? h('div', { class: 'muted small' }, row.problem) : null,
    ),
    h(
      'td',
      { class: 'when' },
      row.lastActivity ? row.lastActivity.replace('T', ' ').replace(/Z$/, ' UTC') : '—',
    ),
    h('td', {}, `${row.n} / ${row.limit ?? '—'}`),
    h('td', {}, row.lastOutcome ?? '—'),
    h('td', {}, row.verdict ?? '—'),
    h(
      'td',
      {},
      row.usd
        ? `$${short(row.usd.spent)} / ${row.usd.cap === null ? w('no cap') : `$${short(row.usd.cap)}`}`
        : '—',
    ),
    h(
      'td',
      {},
      row.sparkline.length
        ? sparkline(
            row.sparkline,
            w(
              'weighted total of {0}, last {1}',
              row.session,
              short(row.sparkline[row.sparkline.length - 1]!),
            ),
          )
        : '—',
    ),
  );
  tr.addEventListener('click', () => actions.openOverview(row.root, row.session));
  return tr;
}

function select(
  id: string,
  label: string,
  value: string,
  options: string[],
  onChange: (v: string) => void,
): HTMLElement {
  const el = h(
    'select',
    { id },
    h('option', { value: '' }, w('all')),
    ...options.map((o) => h('option', { value: o, selected: o === value }, o)),
  );
  el.addEventListener('change', () => onChange(el.value));
  return h('label', { class: 'filter', for: id }, `${label} `, el);
}

function draw(root: HTMLElement, actions: DashboardActions): void {
  const shown = orderRows(
    filterRows(rows, stateFilter ? [stateFilter] : [], kindFilter ? [kindFilter] : []),
    sort.column,
    sort.descending,
  );
  const head = h(
    'tr',
    {},
    ...columns().map(({ column, label }) => {
      if (column === null) return h('th', { scope: 'col' }, label);
      const active = sort.column === column;
      const button = h(
        'button',
        { class: 'sort', type: 'button' },
        label,
        active ? (sort.descending ? ' ▼' : ' ▲') : '',
      );
      button.addEventListener('click', () => {
        sort = {
          column,
          descending: active ? !sort.descending : column === 'lastActivity' || column === 'usd',
        };
        draw(root, actions);
      });
      return h(
        'th',
        { scope: 'col', 'aria-sort': active ? (sort.descending ? 'descending' : 'ascending') : 'none' },
        button,
      );
    }),
  );
  const attention = rows.filter(needsAttention).length;
  const scroll = window.scrollY;
  root.replaceChildren(
    h(
      'header',
      { class: 'ov-header' },
      h('h1', {}, w('Loop Ledger dashboard')),
      h(
        'p',
        { class: 'muted' },
        w(
          '{0} session(s); {1} need a person. Loops that are stalled, escalated, over budget or waiting for a critic verdict come first.',
          rows.length,
          attention,
        ),
      ),
    ),
    h(
      'div',
      { class: 'filters' },
      select('filter-state', w('Status'), stateFilter, ['open', 'paused', 'closed', 'broken'], (v) => {
        stateFilter = v;
        draw(root, actions);
      }),
      select(
        'filter-kind',
        w('Kind'),
        kindFilter,
        ['work', 'repeat', 'run', 'engineering', 'work-order', 'unknown'],
        (v) => {
          kindFilter = v;
          draw(root, actions);
        },
      ),
    ),
    shown.length === 0
      ? h(
          'p',
          { class: 'muted' },
          rows.length === 0
            ? w('No sessions in this workspace yet.')
            : w('No session matches these filters.'),
        )
      : h(
          'table',
          { class: 'dashboard', id: 'dashboard' },
          h('caption', { class: 'visually-hidden' }, w('Sessions')),
          h('thead', {}, head),
          h('tbody', {}, ...shown.map((r) => rowElement(r, actions))),
        ),
  );
  if (window.scrollY !== scroll) window.scrollTo(0, scroll);
}

export function renderDashboard(root: HTMLElement, next: DashboardRow[], actions: DashboardActions): void {
  rows = next;
  draw(root, actions);
}
