// The engine's checkpoint rules on plain data.
import assert from 'node:assert/strict';
import {
  checkpointRef,
  exclusions,
  maxFileBytes,
  readCheckpointKey,
  restorePlan,
  restoreRefusals,
} from '../../../src/engine/checkpoints/rules';

const ID = 'a'.repeat(40);

describe('checkpoints: engine rules', () => {
  it('names refs only for sessions git accepts', () => {
    assert.deepEqual(checkpointRef('s1', 2, 7), { ref: 'refs/loop-ledger/s1/2-7' });
    for (const bad of ['a..b', 'x.lock', 'end.', '-x']) assert.ok('problem' in checkpointRef(bad, 1, 1), bad);
  });

  it('reads a checkpoint key only when its commit is hex and its ref is exactly ours', () => {
    const good = { commit: ID, ref: 'refs/loop-ledger/s1/1-3', head: null, shadow: false, excluded: [] };
    assert.ok(readCheckpointKey(good, 's1', 1, 3) && 'checkpoint' in readCheckpointKey(good, 's1', 1, 3)!);
    assert.equal(readCheckpointKey(undefined, 's1', 1, 3), null);
    for (const bad of [
      { ...good, commit: '--output=x' },
      { ...good, commit: ID.toUpperCase() },
      { ...good, ref: 'refs/heads/main' },
      { ...good, ref: 'refs/loop-ledger/s1/1-4' },
      { ...good, head: 'HEAD' },
      'text',
    ]) {
      assert.ok('problem' in (readCheckpointKey(bad, 's1', 1, 3) ?? {}), JSON.stringify(bad));
    }
  });

  it('leaves out files over the cap, nested repositories and submodules', () => {
    const out = exclusions(
      [
        { path: 'z.bin', kind: 'file', bytes: 11 },
        { path: 'ok.txt', kind: 'file', bytes: 10 },
        { path: 'mod', kind: 'submodule', bytes: 0 },
        { path: 'inner', kind: 'nested-repository', bytes: 0 },
      ],
      10,
    );
    assert.deepEqual(out, [
      { path: 'inner', reason: 'nested-repository' },
      { path: 'mod', reason: 'submodule' },
      { path: 'z.bin', reason: 'too-large', bytes: 11 },
    ]);
    assert.equal(maxFileBytes(undefined), 10 * 1024 * 1024);
    assert.equal(maxFileBytes('1'), 1024 * 1024);
    assert.ok(typeof maxFileBytes('-1') === 'object');
  });

  it('refuses a restore mid-operation always, a moved HEAD or staged changes unless forced', () => {
    const base = { inProgress: null, headNow: ID, headThen: ID, staged: false, shadow: false, force: false };
    assert.deepEqual(restoreRefusals(base), []);
    assert.deepEqual(
      restoreRefusals({ ...base, headNow: 'b'.repeat(40), staged: true }).map((f) => f.code),
      ['head-moved', 'staged-changes'],
    );
    assert.deepEqual(restoreRefusals({ ...base, headNow: null, staged: true, force: true }), []);
    assert.deepEqual(
      restoreRefusals({ ...base, inProgress: 'rebase', force: true }).map((f) => f.code),
      ['git-operation-in-progress'],
    );
  });

  it('plans writes and removals, never a submodule or the ledger folder, keeping unseen files', () => {
    const plan = restorePlan(
      [
        { status: 'M', mode: '100644', modeNow: '100644', path: 'a' },
        { status: 'D', mode: '000000', modeNow: '100644', path: 'added' },
        { status: 'A', mode: '100644', modeNow: '000000', path: 'gone' },
        { status: 'A', mode: '100644', modeNow: '000000', path: 'ignored-now' },
        { status: 'M', mode: '160000', modeNow: '160000', path: 'mod' },
        { status: 'M', mode: '100644', modeNow: '100644', path: 'sub/.loop/ledgers/s.json' },
      ],
      'sub/.loop/',
      (p) => p === 'ignored-now',
    );
    assert.deepEqual(plan, { write: ['a', 'gone'], remove: ['added'], kept: ['ignored-now'] });
  });
});
