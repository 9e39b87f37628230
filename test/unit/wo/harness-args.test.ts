// The default builder's `loop-ledger run` arguments: `wo run --no-checkpoint` reaches the harness,
// which would otherwise take a checkpoint per attempt of its own.
import assert from 'node:assert/strict';
import { harnessArgs } from '../../../src/engine/workorders/harness-build';

describe('wo run: the default builder’s harness arguments', () => {
  const base = {
    woFile: '/t/work-orders/wo-01.md',
    agentConfig: '/t/agents.toml',
    plan: { allow: ['src/*.ts'], checks: ['npm test'] },
    worktree: '/t/tree',
    session: 'wo-01-a1',
  };

  it('passes --no-checkpoint on when the run takes none', () => {
    const args = harnessArgs({ ...base, checkpoint: false });
    assert.equal(args.filter((a) => a === '--no-checkpoint').length, 1);
  });

  it('leaves the harness its default checkpoint otherwise', () => {
    assert.ok(!harnessArgs(base).includes('--no-checkpoint'));
    assert.ok(!harnessArgs({ ...base, checkpoint: true }).includes('--no-checkpoint'));
    assert.deepEqual(harnessArgs(base).slice(-4), ['--root', '/t/tree', '--session', 'wo-01-a1']);
  });
});
