// The work-order verbs as the app's operations, which the CLI and the Work Orders view both call:
// the behaviours the two shells used to decide each for itself.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clearWorkOrderHalt,
  haltWorkOrder,
  killSwitchOn,
  setKillSwitch,
} from '../../../src/app/workorders/admin';
import { clearedMarkerName, clearedSidecar, isHalted } from '../../../src/engine/workorders/admin';
import { OutsideRootError } from '../../../src/store/confine';
import { makeTask } from './fixture';

const AT = '2026-12-02T07:30:00Z';
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('work-order admin operations', () => {
  it('halt writes the marker with the caller extra keys and halts the sidecar', () => {
    const t = makeTask([{ n: 1 }]);
    writeFileSync(join(t.dir, 'wo-01.run.json'), JSON.stringify({ attempts: 1, halted: false }));
    const r = haltWorkOrder(t.dir, 'wo-01', 'manual_stop', AT, { extra: { by: 'vscode' } });
    assert.deepEqual(r, { marker: join(t.dir, 'wo-01.HALT'), sidecarHalted: true });
    assert.deepEqual(json(r.marker), { wo_id: 'wo-01', reason: 'manual_stop', at: AT, by: 'vscode' });
    assert.equal(json(join(t.dir, 'wo-01.run.json')).halt_reason, 'manual_stop');
  });

  it('a person’s halt replaces the marker; the loop’s halt (keepMarker) keeps the first reason', () => {
    const t = makeTask([{ n: 1 }]);
    haltWorkOrder(t.dir, 'wo-01', 'first', AT);
    haltWorkOrder(t.dir, 'wo-01', 'second', AT, { keepMarker: true });
    assert.equal(json(join(t.dir, 'wo-01.HALT')).reason, 'first');
    const r = haltWorkOrder(t.dir, 'wo-01', 'third', AT);
    assert.equal(json(join(t.dir, 'wo-01.HALT')).reason, 'third');
    assert.equal(r.sidecarHalted, false, 'no sidecar: nothing to halt');
  });

  it('clearing a work order that is not halted is refused and writes nothing', () => {
    const t = makeTask([{ n: 1 }]);
    writeFileSync(join(t.dir, 'wo-01.run.json'), JSON.stringify({ attempts: 3, halted: false }));
    const before = readdirSync(t.dir).sort();
    assert.deepEqual(clearWorkOrderHalt(t.dir, 'wo-01', AT, true), { ok: false, reason: 'not_halted' });
    assert.deepEqual(readdirSync(t.dir).sort(), before);
    assert.equal(json(join(t.dir, 'wo-01.run.json')).attempts, 3);
  });

  it('clear keeps the marker under a colon-free cleared name and un-halts the sidecar', () => {
    const t = makeTask([{ n: 1 }]);
    writeFileSync(
      join(t.dir, 'wo-01.run.json'),
      JSON.stringify({ attempts: 2, halted: true, halt_reason: 'x' }),
    );
    haltWorkOrder(t.dir, 'wo-01', 'x', AT);
    const r = clearWorkOrderHalt(t.dir, 'wo-01', AT);
    assert.deepEqual(r, {
      ok: true,
      cleared: join(t.dir, 'wo-01.HALT.cleared-2026-12-02T073000Z'),
      sidecar: true,
    });
    assert.deepEqual(json(join(t.dir, 'wo-01.run.json')), {
      attempts: 2,
      halted: false,
      halt_reason: null,
      cleared_at: AT,
    });
  });

  it('a marker alone (sidecar absent) is cleared and the sidecar left absent', () => {
    const t = makeTask([{ n: 1 }]);
    haltWorkOrder(t.dir, 'wo-01', 'x', AT);
    const r = clearWorkOrderHalt(t.dir, 'wo-01', AT, true);
    assert.equal(r.ok && r.sidecar, false);
    assert.equal(existsSync(join(t.dir, 'wo-01.run.json')), false);
  });

  it('the kill switch is set and lifted; a .kill link leading out of the task is refused', () => {
    const t = makeTask([{ n: 1 }]);
    const path = setKillSwitch(t.task, true, AT);
    assert.equal(readFileSync(path, 'utf8'), `${AT}\n`);
    assert.equal(killSwitchOn(t.task), true);
    setKillSwitch(t.task, false, AT);
    assert.equal(killSwitchOn(t.task), false);
    setKillSwitch(t.task, false, AT); // lifting an absent switch is quiet

    const outside = mkdtempSync(join(tmpdir(), 'kill-outside-'));
    symlinkSync(join(outside, 'victim'), join(t.task, '.kill'));
    assert.throws(() => setKillSwitch(t.task, true, AT), OutsideRootError);
    assert.equal(existsSync(join(outside, 'victim')), false);
  });

  it('engine rules: halted by marker or sidecar; cleared sidecar only when halted or reset', () => {
    assert.equal(isHalted(true, {}), true);
    assert.equal(isHalted(false, { halted: true }), true);
    assert.equal(isHalted(false, { halted: 'true' }), false);
    assert.equal(clearedSidecar({ halted: false, attempts: 2 }, AT, false), undefined);
    assert.deepEqual(clearedSidecar({ halted: false, attempts: 2 }, AT, true), {
      halted: false,
      halt_reason: null,
      cleared_at: AT,
      attempts: 0,
    });
    assert.equal(
      clearedMarkerName('d/wo-01.HALT', '2026-01-02T03:04:05Z'),
      'd/wo-01.HALT.cleared-2026-01-02T030405Z',
    );
  });
});
