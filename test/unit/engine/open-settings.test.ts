import assert from 'node:assert/strict';
import { open } from '../../../src/engine/open';
import { STALL_THRESHOLD_FIELD, stallThresholdProblem } from '../../../src/engine/open-settings';
import { isRefusal } from '../../../src/engine/refusal';
import { sampleContract } from '../helpers/cli';

describe('engine: open settings (one rule for both shells)', () => {
  it('accepts whole numbers from 1 up to 2^53-1', () => {
    for (const ok of [1, 2, 3, 1000, Number.MAX_SAFE_INTEGER]) assert.equal(stallThresholdProblem(ok), null);
  });

  it('refuses 0, negatives, fractions, NaN, Infinity and unsafe integers, naming the field', () => {
    for (const bad of [0, -1, 2.5, Number.NaN, Infinity, 2 ** 60]) {
      const problem = stallThresholdProblem(bad);
      assert.ok(problem, `${bad} is refused`);
      assert.deepEqual(problem.path, [STALL_THRESHOLD_FIELD]);
      assert.match(problem.message, /at least 1/);
    }
  });

  it('open() itself refuses a 0 threshold with exit 2, before anything else is checked', () => {
    const result = open({
      session: 's',
      existing: null,
      contract: sampleContract(),
      stallThreshold: 0,
      force: false,
      baselineEvidence: [],
      now: new Date(0),
      resolveProgram: () => true,
    });
    assert.ok(isRefusal(result));
    assert.equal(result.exitCode, 2);
    assert.deepEqual(result.findings[0]?.path, [STALL_THRESHOLD_FIELD]);
  });
});
