// "Create a Work Order" writes a file the work-order kernels read: the next number, status ready,
// no dependencies; checked through `loop-ledger wo reconcile-table` as a child process.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkOrder, nextNumber, slugOf } from '../../../src/app/workorders/new-work-order';
import { runCli, tempRoot } from '../helpers/cli';

describe('wo: create a work order', () => {
  it('numbers, names and writes the next work order; the kernels read it as ready', () => {
    const task = join(tempRoot(), 'tasks', 'row-numbers');
    const first = createWorkOrder(task, 'Name the row in errors!');
    assert.match(first, /work-orders\/wo-01-name-the-row-in-errors\.md$/);
    const second = createWorkOrder(task, '   ');
    assert.match(second, /work-orders\/wo-02-work\.md$/);
    assert.deepEqual(readdirSync(join(task, 'work-orders')).sort(), [
      'wo-01-name-the-row-in-errors.md',
      'wo-02-work.md',
    ]);
    const table = runCli(['wo', 'reconcile-table', join(task, 'work-orders')]);
    assert.equal(table.code, 0, table.stderr);
    const rows = JSON.parse(table.stdout) as { wo_id: string; status: string }[];
    assert.deepEqual(
      rows.map((r) => [r.wo_id, r.status]),
      [
        ['wo-01', 'ready'],
        ['wo-02', 'ready'],
      ],
    );
    assert.ok(existsSync(first));
  });

  it('slugs and numbers', () => {
    assert.equal(slugOf('Ünïcode & stuff'), 'n-code-stuff');
    assert.equal(nextNumber(['wo-03-a.md', 'wo-10-b.md', 'notes.md']), 11);
    assert.equal(nextNumber([]), 1);
  });
});
