// The dashboard's rows and their order. A lead keeps the dashboard open while agents run: the
// loops that need a person (stalled, escalated, over a budget, or waiting for a critic verdict)
// come first whatever column the table is sorted by; within each group the chosen column decides.
// Pure: the host reads the ledgers and passes them in.
import type { StatusPayload } from '../status';
import type { IterationRecord, Ledger } from '../types';
import { loopKind, type LoopKind } from './model';
import { downsampleColumns, SeriesColumns } from './series';

/** Points in a dashboard sparkline at most (it is drawn a few dozen pixels wide). */
export const SPARKLINE_BUCKETS = 32;

export type RowState = 'open' | 'paused' | 'closed' | 'broken';

export interface DashboardRow {
  readonly root: string;
  readonly folder: string;
  readonly session: string;
  readonly kind: LoopKind | 'unknown';
  readonly state: RowState;
  readonly lastActivity: string | null;
  readonly n: number;
  readonly limit: number | null;
  readonly lastOutcome: string | null;
  readonly verdict: string | null;
  /** Dollars spent and the cap, when the ledger records either. */
  readonly usd: { readonly spent: number; readonly cap: number | null } | null;
  readonly overBudget: boolean;
  readonly stalled: boolean;
  readonly escalated: boolean;
  readonly waitingForVerdict: boolean;
  readonly sparkline: number[];
  /** Why a broken ledger cannot be read. */
  readonly problem: string | null;
}

export const SORT_COLUMNS = [
  'session',
  'state',
  'lastActivity',
  'n',
  'lastOutcome',
  'verdict',
  'usd',
] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

/** True for a loop a person should look at now. */
export function needsAttention(row: DashboardRow): boolean {
  return row.state === 'broken' || row.stalled || row.escalated || row.overBudget || row.waitingForVerdict;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The sparkline of a ledger's weighted totals: every record with one, cut into buckets by the
 * overview's downsampler (each bucket its lowest and highest value), so it stands for the whole
 * ledger however long it is.
 */
export function sparklineOf(records: readonly IterationRecord[]): number[] {
  // Straight into columns: a long ledger's worker read makes no object per record for it.
  const totals = new SeriesColumns(records.length);
  for (const r of records) {
    const t = num(r.evaluation?.weighted_total);
    if (t !== null) totals.push(r.n, t, false);
  }
  return downsampleColumns(totals, SPARKLINE_BUCKETS / 2).points.map((p) => p.value);
}

/** What the reader computed over every record when `ledger.iterations` holds only the newest. */
export interface WholeLedgerFacts {
  /** `sparklineOf` all the records. */
  readonly sparkline: readonly number[];
}

/**
 * The dashboard row of a readable ledger. `whole`: given when `ledger.iterations` holds only the
 * newest records of a long ledger (the rest stayed where it was read), with what was computed over
 * all of them there.
 */
export function dashboardRow(
  root: string,
  folder: string,
  ledger: Ledger,
  status: StatusPayload,
  whole?: WholeLedgerFacts,
): DashboardRow {
  const newestOnly = whole !== undefined;
  const records = Array.isArray(ledger.iterations) ? ledger.iterations : [];
  const epoch = typeof ledger.epoch === 'number' ? ledger.epoch : 1;
  const current = records.filter((r) => (typeof r.epoch === 'number' ? r.epoch : 1) === epoch);
  // Of a long ledger read elsewhere the counts come from `status`, which saw every record.
  const n = newestOnly ? status.limits.iterations.spent : current.length;
  const last = records[records.length - 1];
  const contract = (ledger.contract ?? {}) as unknown as Record<string, unknown>;
  let usd: DashboardRow['usd'] = null;
  const budget = status.budget;
  let over = false;
  if (budget) {
    for (const line of Object.values(budget)) if (line.cap !== null && line.spent >= line.cap) over = true;
    if (budget.usd && (budget.usd.spent !== 0 || budget.usd.cap !== null)) usd = { ...budget.usd };
  } else {
    let spent = newestOnly ? status.spend.cost_usd : 0;
    let saw = newestOnly && spent !== 0;
    for (const r of newestOnly ? [] : records) {
      const c = num((r as unknown as Record<string, unknown>).cost_usd);
      if (c !== null) {
        spent += c;
        saw = true;
      }
    }
    const cap = num(contract.cost_limit);
    if (saw || cap !== null) usd = { spent: Math.round(spent * 1e6) / 1e6, cap };
    if (cap !== null && spent >= cap) over = true;
  }
  if (last?.stall === 'budget-stop') over = true;
  const state: RowState =
    ledger.status === 'open' ? 'open' : ledger.final_outcome === 'pause' ? 'paused' : 'closed';
  return {
    root,
    folder,
    session: ledger.session,
    kind: loopKind(ledger),
    state,
    lastActivity: last && typeof last.timestamp === 'string' ? last.timestamp : (ledger.opened_at ?? null),
    n,
    limit: num(contract.iteration_limit),
    lastOutcome: status.last_outcome ?? null,
    verdict: status.critic_verdict,
    usd,
    overBudget: over,
    stalled: typeof last?.stall === 'string' && last.stall !== 'budget-stop',
    escalated: (last?.outcome ?? ledger.final_outcome) === 'escalate' || ledger.final_outcome === 'escalate',
    waitingForVerdict: typeof ledger.pending_brief?.brief_id === 'string',
    sparkline: whole ? [...whole.sparkline] : sparklineOf(records),
    problem: null,
  };
}

/** The row of a ledger that cannot be read: its reason, and attention. */
export function brokenRow(root: string, folder: string, session: string, problem: string): DashboardRow {
  return {
    root,
    folder,
    session,
    kind: 'unknown',
    state: 'broken',
    lastActivity: null,
    n: 0,
    limit: null,
    lastOutcome: null,
    verdict: null,
    usd: null,
    overBudget: false,
    stalled: false,
    escalated: false,
    waitingForVerdict: false,
    sparkline: [],
    problem,
  };
}

function compareBy(column: SortColumn, a: DashboardRow, b: DashboardRow): number {
  const cmp = (x: string | number | null, y: string | number | null): number => {
    // Missing values sort after present ones in either direction's base order.
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return x < y ? -1 : x > y ? 1 : 0;
  };
  switch (column) {
    case 'session':
      return cmp(a.session, b.session);
    case 'state':
      return cmp(a.state, b.state);
    case 'lastActivity':
      return cmp(a.lastActivity, b.lastActivity);
    case 'n':
      return cmp(a.n, b.n);
    case 'lastOutcome':
      return cmp(a.lastOutcome, b.lastOutcome);
    case 'verdict':
      return cmp(a.verdict, b.verdict);
    case 'usd':
      return cmp(a.usd?.spent ?? null, b.usd?.spent ?? null);
  }
}

/**
 * `rows` in dashboard order: those needing attention first, then by `column` (descending when
 * asked; missing values last either way), ties by folder and session so the order is stable.
 */
export function orderRows(
  rows: readonly DashboardRow[],
  column: SortColumn,
  descending: boolean,
): DashboardRow[] {
  return [...rows].sort((a, b) => {
    const attention = Number(needsAttention(b)) - Number(needsAttention(a));
    if (attention !== 0) return attention;
    const aMissing =
      column === 'usd' ? a.usd === null : column === 'lastActivity' ? a.lastActivity === null : false;
    const bMissing =
      column === 'usd' ? b.usd === null : column === 'lastActivity' ? b.lastActivity === null : false;
    if (aMissing !== bMissing) return aMissing ? 1 : -1;
    const by = compareBy(column, a, b);
    if (by !== 0) return descending ? -by : by;
    return a.folder < b.folder
      ? -1
      : a.folder > b.folder
        ? 1
        : a.session < b.session
          ? -1
          : a.session > b.session
            ? 1
            : 0;
  });
}

/** The rows a filter keeps: `states` and `kinds` empty mean every one. */
export function filterRows(
  rows: readonly DashboardRow[],
  states: readonly string[],
  kinds: readonly string[],
): DashboardRow[] {
  return rows.filter(
    (r) =>
      (states.length === 0 || states.includes(r.state)) && (kinds.length === 0 || kinds.includes(r.kind)),
  );
}
