// The Work Orders view's dependency rows and "why it waits" line, read from a real task folder
// through the view's own loader: a TERMINAL dependency is never shown as "ready", and a blocked
// work order's reason is words, never the engine's raw `deps_not_done:…` code.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  dependencyDescription,
  dependencyIcon,
  statusWords,
  waitsWords,
} from '../../../src/extension/workorders/depWords';
import { loadTask } from '../../../src/extension/workorders/model';
import { makeTask } from '../wo/fixture';

describe('Work Orders view: dependency words', () => {
  it('a TERMINAL dependency (HALT marker, status still ready) says TERMINAL, and the blocked one waits in words', async () => {
    const t = makeTask([{ n: 1 }, { n: 2, blockedBy: [1] }, { n: 3, blockedBy: [2] }]);
    writeFileSync(
      join(t.dir, 'wo-01.HALT'),
      JSON.stringify({ wo_id: 'wo-01', reason: 'retry_cap_exhausted', at: '2026-01-01T00:00:00Z' }),
    );
    const task = await loadTask(t.task);
    const [wo1, wo2, wo3] = task.workOrders;
    assert.ok(wo1 && wo2 && wo3);
    assert.equal(wo1.row.status, 'ready', 'the status line still says ready');
    assert.equal(
      dependencyDescription(wo1),
      'TERMINAL (retry_cap_exhausted): blocks this work order until cleared',
    );
    assert.equal(dependencyIcon(wo1), 'error');
    assert.equal(wo2.waitingOn, 'deps_not_done:local:t#wo-01');
    const words = waitsWords(wo2.waitingOn ?? '', task.workOrders);
    assert.equal(
      words,
      'waits for wo-01, which is TERMINAL (retry_cap_exhausted): nothing runs until a person clears wo-01',
    );
    assert.doesNotMatch(words, /deps_not_done/);
    // A live dependency: its status in words.
    assert.equal(dependencyDescription(wo2), 'blocked');
    assert.equal(dependencyIcon(wo2), 'arrow-small-right');
    assert.equal(
      waitsWords(wo3.waitingOn ?? '', task.workOrders),
      'waits for wo-02 to be done (it is blocked)',
    );
  });

  it('a missing or unresolvable dependency, and every status, in words', () => {
    assert.equal(dependencyDescription(undefined), 'missing');
    assert.equal(dependencyIcon(undefined), 'question');
    assert.equal(
      waitsWords('deps_unresolvable:local:t#wo-9x', []),
      'waits for local:t#wo-9x, which names no single work-order file here',
    );
    assert.equal(waitsWords('deps_not_done:local:t#wo-07', []), 'waits for wo-07 to be done');
    assert.deepEqual(['ready', 'blocked', 'in_progress', 'done', 'needs_rework', 'weird'].map(statusWords), [
      'ready',
      'blocked',
      'in progress',
      'done',
      'needs rework',
      'unknown status weird',
    ]);
  });
});
