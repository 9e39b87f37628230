// The Work Orders view reads a task a cloned repository brought: a work order or sidecar that is a
// link to /dev/zero, or a FIFO, must read as empty, never hold the extension host (an endless
// read would grow until the host dies; a FIFO with no writer would never answer).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { loadTask } from '../../../src/extension/workorders/model';
import { obsReportMarkdown } from '../../../src/extension/workorders/report';
import { makeTask } from '../wo/fixture';

describe('Work Orders view: hostile files in a task', () => {
  it('loads a task whose work order, sidecar and obs log are links to /dev/zero or FIFOs', async function () {
    this.timeout(15_000);
    const t = makeTask([{ n: 1 }]);
    symlinkSync('/dev/zero', join(t.dir, 'wo-02-zero.md'));
    execFileSync('mkfifo', [join(t.dir, 'wo-03-fifo.md')]);
    symlinkSync('/dev/zero', join(t.dir, 'wo-01.run.json'));
    symlinkSync('/dev/zero', join(t.dir, 'loop-obs.ndjson'));
    const task = await loadTask(t.task);
    assert.deepEqual(
      task.workOrders.map((w) => w.id),
      ['wo-01', 'wo-02', 'wo-03'],
    );
    const report = await obsReportMarkdown(t.dir, 'task');
    assert.match(report, /^# Work-order report/);
  });
});
