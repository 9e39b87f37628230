// The Work Orders view in the real workbench: a fixture task with a done, a TERMINAL (HALT), a
// resumable and a waiting work order; the tree shows each one's state in words.
import * as assert from 'node:assert/strict';
import { Workbench } from './workbench';

describe('Work Orders view in the workbench', function () {
  let workbench: Workbench;

  before(async function () {
    workbench = await Workbench.open({ fixture: 'wo-workspace' });
  });

  after(async function () {
    await workbench?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await workbench?.screenshot(`failed-${this.currentTest.title}`);
  });

  it('shows the task, a TERMINAL work order with its HALT reason, and where a crashed one resumes', async function () {
    await workbench.openViewContainer('Loop Ledger');
    const pane = workbench.pane('Work Orders');
    const task = pane.locator('.monaco-list-row[aria-level="1"]', { hasText: 'checkout' });
    await task.waitFor();
    assert.match(await task.innerText(), /1\/4 done · 1 TERMINAL/);
    const terminal = pane.locator('.monaco-list-row', { hasText: 'wo-02 Price rules' });
    await terminal.waitFor();
    assert.match(await terminal.innerText(), /TERMINAL: retry_cap_exhausted · 3\/3/);
    const resumable = pane.locator('.monaco-list-row', { hasText: 'wo-03 Checkout form' });
    assert.match(await resumable.innerText(), /resume at critique/);
    await workbench.screenshot('wo-01-work-orders-view');
  });
});
