// `loop-ledger checkpoint <action>` with a flag that belongs to another action: a usage error
// (exit 2) naming the flag, and nothing changed. `prune --dry-run` used to prune for real (the
// flag was read by restore only), so a person previewing a prune lost every checkpoint ref.
import assert from 'node:assert/strict';
import { assertNoStack } from '../cli/setup';
import { checkpoint, makeRepo, sh } from './repo';

const refs = (root: string): string =>
  sh(root, ['for-each-ref', '--format=%(refname)', 'refs/loop-ledger']).trim();

describe('checkpoints: a flag of another action is refused', function () {
  this.timeout(90_000);

  it('prune --dry-run (a restore flag) is exit 2 and prunes nothing', () => {
    const repo = makeRepo();
    repo.write('a.txt', 'two\n');
    assert.equal(checkpoint(repo).code, 0);
    repo.write('a.txt', 'three\n');
    assert.equal(checkpoint(repo).code, 0);
    const before = refs(repo.root);
    const r = repo.cli('checkpoint', 'prune', '--keep', '0', '--dry-run');
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /--dry-run/);
    assertNoStack(r.stderr);
    assert.equal(refs(repo.root), before, 'no ref was pruned');
  });

  for (const [action, flags] of [
    ['list', ['--keep', '1']],
    ['diff', ['--iteration', '1', '--force']],
    ['restore', ['--iteration', '1', '--from', '1', '--to', '2']],
    ['prune', ['--keep', '1', '--force']],
  ] as const) {
    it(`${action} ${flags.join(' ')}: exit 2, naming the flag`, () => {
      const repo = makeRepo();
      repo.write('a.txt', 'two\n');
      assert.equal(checkpoint(repo).code, 0);
      const before = refs(repo.root);
      const r = repo.cli('checkpoint', action, ...flags);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /--(keep|force|from|to|dry-run)\b.*(not|only)/);
      assertNoStack(r.stderr);
      assert.equal(refs(repo.root), before);
    });
  }
});
