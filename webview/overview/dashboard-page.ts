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

export interface DashboardActions {
  openOverview(root: string, session: string): void;
}

let rows: DashboardRow[] = [];
let sort: { column: SortColumn; descending: boolean } = { column: 'lastActivity', descending: true };
let stateFilter = '';
let kindFilter = '';

const COLUMNS: { column: SortColumn | null; label: string }[] = [
  { column: 'session', label: 'Session' },
  { column: 'state', label: 'Status' },
  { column: 'lastActivity', label: 'Last activity' },
  { column: 'n', label: 'n / limit' },
  { column: 'lastOutcome', label: 'Last outcome' },
  { column: 'verdict', label: 'Verdict' },
  { column: 'usd', label: 'Spend' },
  { column: null, label: 'Weighted total' },
];

function flags(row: DashboardRow): HTMLElement[] {
  const out: HTMLElement[] = [];
  const flag = (text: string, cls: string) => out.push(h('span', { class: `badge ${cls}` }, text));
  if (row.state === 'broken') flag('unreadable', 'warn');
  if (row.stalled) flag('stalled', 'warn');
  if (row.escalated) flag('escalated', 'warn');
  if (row.overBudget) flag('over budget', 'warn');
  if (row.waitingForVerdict) flag('waiting for verdict', 'info');
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
        ? `$${short(row.usd.spent)} / ${row.usd.cap === null ? 'no cap' : `$${short(row.usd.cap)}`}`
        : '—',
    ),
    h(
      'td',
      {},
      row.sparkline.length
        ? sparkline(
            row.sparkline,
            `weighted total of ${row.session}, last ${short(row.sparkline[row.sparkline.length - 1]!)}`,
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
    h('option', { value: '' }, 'all'),
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
    ...COLUMNS.map(({ column, label }) => {
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
      h('h1', {}, 'Loop Ledger dashboard'),
      h(
        'p',
        { class: 'muted' },
        `${rows.length} session(s); ${attention} need a person. Loops that are stalled, escalated, over budget or waiting for a critic verdict come first.`,
      ),
    ),
    h(
      'div',
      { class: 'filters' },
      select('filter-state', 'Status', stateFilter, ['open', 'paused', 'closed', 'broken'], (v) => {
        stateFilter = v;
        draw(root, actions);
      }),
      select(
        'filter-kind',
        'Kind',
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
          rows.length === 0 ? 'No sessions in this workspace yet.' : 'No session matches these filters.',
        )
      : h(
          'table',
          { class: 'dashboard', id: 'dashboard' },
          h('caption', { class: 'visually-hidden' }, 'Sessions'),
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
