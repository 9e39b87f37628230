// A work order's overview: its ledger written by the work-order run's own ledger writer (an epoch
// per attempt, phase iterations, a closing verdict), read back by the store, shown as attempts
// with the phases each reached and how each ended.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WoLedger } from '../../../src/app/workorders/ledger';
import { buildOverview } from '../../../src/engine/overview/model';
import { ledgerPath, readLedgerFile } from '../../../src/store';
import { syntheticLedger } from './synthetic-ledger';

describe('overview model: a work order', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'loop-ledger-wo-overview-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('shows attempts, the phases each reached and how each ended', () => {
    const problems: string[] = [];
    const wo = new WoLedger(root, (line) => problems.push(line));
    const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
    wo.dispatch('wo-1', 1, at(0));
    wo.phase('wo-1', 1, 'build', at(1));
    wo.phase('wo-1', 1, 'review', at(2));
    wo.close('wo-1', 'revise', { note: 'review asked for changes' });
    wo.dispatch('wo-1', 2, at(3));
    wo.phase('wo-1', 2, 'build', at(4));
    wo.phase('wo-1', 2, 'review', at(5));
    wo.phase('wo-1', 2, 'critique', at(6));
    assert.deepEqual(problems, []);

    const open = readLedgerFile(ledgerPath(root, 'wo-1'));
    assert.equal(open.kind, 'ok');
    if (open.kind !== 'ok') return;
    const running = buildOverview(open.ledger, null, 100);
    assert.equal(running.kind, 'work-order');
    assert.equal(running.attempts, 2);
    assert.deepEqual(running.kindColumns, ['attempt', 'phases', 'ended']);
    assert.deepEqual(running.kindRows, [
      { n: 1, cells: ['1', 'build, review', 're-dispatched'] },
      { n: 3, cells: ['2', 'build, review, critique', 'in progress'] },
    ]);

    wo.close('wo-1', 'complete');
    const closed = readLedgerFile(ledgerPath(root, 'wo-1'));
    assert.equal(closed.kind, 'ok');
    if (closed.kind !== 'ok') return;
    const done = buildOverview(closed.ledger, null, 100);
    assert.deepEqual(done.kindRows[1]?.cells, ['2', 'build, review, critique', 'CLEAN (complete)']);
  });

  it('other kinds carry no attempts', () => {
    const model = buildOverview(syntheticLedger(3), null, 100);
    assert.equal(model.kind, 'work');
    assert.equal(model.attempts, null);
  });
});
