// The overview model over a ledger: the header counts, one chart per dimension with its
// reference lines, the total, the spend the optional record keys add, epoch bands, stalls and
// verdicts — and a 100,000-iteration ledger stays within the message cap.
import assert from 'node:assert/strict';
import { buildOverview, recordInWords } from '../../../src/engine/overview/model';
import { status } from '../../../src/engine/status';
import type { Ledger } from '../../../src/engine/types';
import { syntheticLedger } from './synthetic-ledger';

describe('overview model', () => {
  it('holds what the header, the charts and the timeline draw', () => {
    const ledger = syntheticLedger(30);
    const model = buildOverview(ledger, status(ledger).payload, 400);
    assert.equal(model.session, 'synthetic');
    assert.equal(model.kind, 'work');
    assert.equal(model.iterations, 30);
    assert.equal(model.epochIterations, 20); // epoch 2 holds records 11..30
    assert.equal(model.iterationLimit, 30);
    assert.deepEqual(model.epochs, [
      { n: 1, first: 1, last: 10 },
      { n: 2, first: 11, last: 30 },
    ]);
    assert.equal(model.dimensions.length, 2);
    const [failing, coverage] = model.dimensions;
    assert.equal(failing!.direction, 'lower-is-better');
    assert.equal(failing!.hardGate, true);
    assert.deepEqual([failing!.baseline, failing!.target, failing!.failureThreshold], [10, 0, 12]);
    assert.equal(coverage!.series.points.length, 30);
    assert.equal(coverage!.series.points[4]!.value, ledger.iterations[4]!.measurements!.coverage);
    assert.equal(model.total?.points.length, 30);
    assert.deepEqual(
      model.verdicts.map((v) => v.n),
      [5, 10, 15, 20, 25, 30],
    );
    assert.equal(model.timeline.length, 30);
    assert.equal(model.timeline[29]!.outcome, 'complete');
    const usd = model.spend.find((l) => l.key === 'usd');
    assert.ok(usd, 'records with cost_usd add a spend line');
    const expected = ledger.iterations.reduce(
      (sum, r) => sum + ((r as { cost_usd?: number }).cost_usd ?? 0),
      0,
    );
    assert.ok(Math.abs(usd.spent - expected) < 1e-9);
    assert.equal(model.cost?.points.length, 15);
  });

  it('reads a ledger without the optional keys as before (no spend beyond iterations)', () => {
    const ledger = syntheticLedger(4);
    for (const r of ledger.iterations) {
      const raw = r as unknown as Record<string, unknown>;
      delete raw.cost_usd;
      delete raw.tokens_in;
      delete raw.tokens_out;
    }
    const model = buildOverview(ledger, null, 100);
    assert.deepEqual(
      model.spend.map((l) => l.key),
      ['iterations'],
    );
    assert.equal(model.cost, null);
  });

  it('ignores malformed optional keys instead of failing', () => {
    const ledger = syntheticLedger(3);
    (ledger.iterations[0] as unknown as Record<string, unknown>).cost_usd = 'lots';
    (ledger.contract as unknown as Record<string, unknown>).cost_limit = 1;
    const model = buildOverview(ledger, null, 100);
    const usd = model.spend.find((l) => l.key === 'usd');
    assert.deepEqual(usd, { key: 'usd', spent: 0.03, cap: 1 }); // record 2's 0.03 only
  });

  it('shows a repeat’s classification and change metric per iteration', () => {
    const ledger = syntheticLedger(3) as Ledger & Record<string, unknown>;
    ledger.repeat = { status: 'running' };
    (ledger.iterations[1] as unknown as Record<string, unknown>).repeat = {
      classification: 'continuing',
      change_metric: '3 files, +10/-2',
      resolution: null,
    };
    const model = buildOverview(ledger, null, 100);
    assert.equal(model.kind, 'repeat');
    assert.deepEqual(model.kindRows, [{ n: 2, cells: ['continuing', '3 files, +10/-2', ''] }]);
  });

  it('keeps 100,000 iterations within the bucket budget and a bounded message', () => {
    const ledger = syntheticLedger(100_000);
    const model = buildOverview(ledger, null, 400);
    assert.equal(model.iterations, 100_000);
    assert.ok(model.timeline.length <= 400);
    for (const d of model.dimensions) assert.ok(d.series.points.length <= 800);
    assert.equal(model.timeline[0]!.first, 1);
    assert.equal(model.timeline.at(-1)!.last, 100_000);
    assert.ok(JSON.stringify(model).length < 512 * 1024, 'the overview message stays under 512 KB');
  });

  it('puts a record in words, skipping what is empty', () => {
    const ledger = syntheticLedger(2);
    const lines = recordInWords(ledger.iterations[1]!);
    const keys = lines.map((l) => l.key);
    assert.ok(keys.includes('outcome'));
    assert.ok(keys.includes('files changed'));
    assert.ok(keys.includes('cost usd'));
    assert.ok(!keys.includes('blocker'));
  });
});
