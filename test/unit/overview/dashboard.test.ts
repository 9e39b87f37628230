// The dashboard's rows and order: loops that need a person (unreadable, stalled, escalated, over
// budget, waiting for a verdict) first whatever the sort column, then the column, missing values
// last in either direction; the filters by state and kind.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  brokenRow,
  dashboardRow,
  filterRows,
  needsAttention,
  orderRows,
  SORT_COLUMNS,
  SPARKLINE_BUCKETS,
  sparklineOf,
  type DashboardRow,
} from '../../../src/engine/overview/dashboard';
import { status } from '../../../src/engine/status';
import { syntheticLedger } from './synthetic-ledger';

function row(session: string, extra: Partial<DashboardRow> = {}): DashboardRow {
  return {
    ...brokenRow('/ws', 'ws', session, ''),
    state: 'open',
    kind: 'work',
    problem: null,
    ...extra,
  };
}

describe('overview dashboard', () => {
  it('builds a row from a ledger: n counts the current epoch, spend from cost_usd, a sparkline', () => {
    const ledger = syntheticLedger(12, 'demo');
    (ledger.contract as unknown as Record<string, unknown>).cost_limit = 0.05;
    const r = dashboardRow('/ws', 'ws', ledger, status(ledger).payload);
    assert.equal(r.session, 'demo');
    assert.equal(r.n, 8);
    assert.equal(r.limit, 12);
    assert.equal(r.lastOutcome, 'complete');
    assert.equal(r.lastActivity, ledger.iterations[11]!.timestamp);
    assert.ok(r.usd && r.usd.cap === 0.05 && r.usd.spent > 0.05);
    assert.equal(r.overBudget, true);
    assert.equal(r.sparkline.length, 12);
    assert.equal(r.waitingForVerdict, false);
  });

  it("a long ledger's sparkline stands for every record: its values, the lowest and highest kept, the whole run", () => {
    const ledger = syntheticLedger(5_000, 'long');
    const totals = ledger.iterations.map((r) => r.evaluation!.weighted_total);
    // A dip far back and a spike in the middle: neither is among the newest records.
    ledger.iterations[37]!.evaluation!.weighted_total = -5;
    ledger.iterations[2_500]!.evaluation!.weighted_total = 250;
    totals[37] = -5;
    totals[2_500] = 250;
    const line = sparklineOf(ledger.iterations);
    assert.ok(
      line.length <= SPARKLINE_BUCKETS && line.length >= SPARKLINE_BUCKETS / 2,
      `${line.length} points`,
    );
    const values = new Set(totals);
    assert.ok(
      line.every((v) => values.has(v)),
      'every point is a value of the ledger',
    );
    assert.equal(Math.min(...line), -5);
    assert.equal(Math.max(...line), 250);
    // The row of the newest records only, with the facts computed over all of them, draws them.
    const newest = { ...ledger, iterations: ledger.iterations.slice(-250) };
    const held = dashboardRow('/ws', 'ws', newest, status(ledger).payload, { sparkline: line });
    assert.deepEqual(held.sparkline, line);
    assert.deepEqual(held.sparkline, dashboardRow('/ws', 'ws', ledger, status(ledger).payload).sparkline);
    assert.equal(held.n, dashboardRow('/ws', 'ws', ledger, status(ledger).payload).n);
    // Records without a weighted total are left out, not drawn as zero.
    assert.deepEqual(sparklineOf([]), []);
  });

  it('puts the loops needing a person first, then sorts by the column', () => {
    const rows = [
      row('a-quiet', { lastActivity: '2026-01-03T00:00:00Z' }),
      row('b-stalled', { stalled: true, lastActivity: '2026-01-01T00:00:00Z' }),
      row('c-quiet', { lastActivity: '2026-01-05T00:00:00Z' }),
      row('d-waiting', { waitingForVerdict: true, lastActivity: '2026-01-02T00:00:00Z' }),
      row('e-never', { lastActivity: null }),
      row('f-over', { overBudget: true, lastActivity: '2026-01-04T00:00:00Z' }),
    ];
    assert.deepEqual(
      orderRows(rows, 'lastActivity', true).map((r) => r.session),
      ['f-over', 'd-waiting', 'b-stalled', 'c-quiet', 'a-quiet', 'e-never'],
    );
    assert.deepEqual(
      orderRows(rows, 'lastActivity', false).map((r) => r.session),
      ['b-stalled', 'd-waiting', 'f-over', 'a-quiet', 'c-quiet', 'e-never'],
    );
    assert.deepEqual(
      orderRows(rows, 'session', false).map((r) => r.session),
      ['b-stalled', 'd-waiting', 'f-over', 'a-quiet', 'c-quiet', 'e-never'],
    );
  });

  it('counts an unreadable ledger and an escalation as needing a person', () => {
    assert.equal(needsAttention(brokenRow('/ws', 'ws', 'x', 'unreadable ledger')), true);
    assert.equal(needsAttention(row('y', { escalated: true })), true);
    assert.equal(needsAttention(row('z')), false);
  });

  it('filters by state and kind (empty means all)', () => {
    const rows = [row('a'), row('b', { state: 'closed' }), row('c', { kind: 'repeat' })];
    assert.deepEqual(
      filterRows(rows, ['open'], []).map((r) => r.session),
      ['a', 'c'],
    );
    assert.deepEqual(
      filterRows(rows, [], ['repeat']).map((r) => r.session),
      ['c'],
    );
    assert.equal(filterRows(rows, [], []).length, 3);
  });

  it('property: every order is a permutation with every attention row before every other', () => {
    const arb = fc.record({
      session: fc.string({ minLength: 1, maxLength: 6 }),
      stalled: fc.boolean(),
      waitingForVerdict: fc.boolean(),
      n: fc.integer({ min: 0, max: 50 }),
      lastActivity: fc.option(fc.constantFrom('2026-01-01', '2026-01-02', '2026-01-03'), { nil: null }),
    });
    fc.assert(
      fc.property(
        fc.array(arb, { maxLength: 40 }),
        fc.constantFrom(...SORT_COLUMNS),
        fc.boolean(),
        (specs, column, desc) => {
          const rows = specs.map((s) => row(s.session, s));
          const ordered = orderRows(rows, column, desc);
          assert.equal(ordered.length, rows.length);
          for (const r of rows) assert.ok(ordered.includes(r));
          const firstQuiet = ordered.findIndex((r) => !needsAttention(r));
          if (firstQuiet !== -1) assert.ok(ordered.slice(firstQuiet).every((r) => !needsAttention(r)));
        },
      ),
    );
  });
});
