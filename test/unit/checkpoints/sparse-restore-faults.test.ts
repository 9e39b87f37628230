// A sparse checkout (take and restore), and SIGKILL while restoring: whatever the moment, the
// user's HEAD, index and branches are as they were, a safety checkpoint written before the kill
// holds the workspace as it was, and a second restore finishes the job.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, childEnv, tempRoot } from '../helpers/cli';
import { checkpoint, gitState, ledgerRecords, makeRepo, sh, type Repo } from './repo';

const read = (repo: Repo, path: string) => readFileSync(join(repo.root, path), 'utf8');

/** A preload that SIGKILLs the process right after its Nth git call returns. */
function killAfterGitCall(): string {
  const path = join(tempRoot('loop-ledger-kill-'), 'kill.cjs');
  writeFileSync(
    path,
    `const cp = require('child_process');
const real = cp.spawnSync;
let calls = 0;
cp.spawnSync = function (file, args) {
  const r = real.apply(this, arguments);
  if (file === 'git') {
    calls += 1;
    if (calls === Number(process.env.KILL_AFTER)) process.kill(process.pid, 'SIGKILL');
  }
  return r;
};
`,
  );
  return path;
}

/** The user's git minus the working tree's status (a killed restore may have written files). */
function headIndexRefs(root: string): string {
  const { index, refs, packed, head } = JSON.parse(gitState(root));
  return JSON.stringify({ index, refs, packed, head });
}

describe('checkpoints: sparse checkout and a killed restore', function () {
  this.timeout(300_000);

  it('a sparse checkout: the checkpoint keeps the entries outside the cone; restore never materialises them', () => {
    const repo = makeRepo();
    mkdirSync(join(repo.root, 'in'));
    mkdirSync(join(repo.root, 'out'));
    repo.write('in/x.txt', 'x1\n');
    repo.write('out/y.txt', 'y1\n');
    sh(repo.root, ['add', 'in', 'out']);
    sh(repo.root, ['commit', '-qm', 'two folders']);
    sh(repo.root, ['sparse-checkout', 'set', '--cone', 'in']);
    assert.equal(existsSync(join(repo.root, 'out', 'y.txt')), false);
    const sparseFile = readFileSync(join(repo.root, '.git', 'info', 'sparse-checkout'));

    repo.write('in/x.txt', 'x2\n');
    const one = checkpoint(repo);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(sh(repo.root, ['show', `${one.json.checkpoint.ref}:in/x.txt`]), 'x2\n');
    // Outside the cone the index's entry is kept as it is, not recorded as a deletion.
    assert.equal(sh(repo.root, ['show', `${one.json.checkpoint.ref}:out/y.txt`]), 'y1\n');

    repo.write('in/x.txt', 'x3\n');
    repo.write('in/new.txt', 'new\n');
    const two = checkpoint(repo);
    assert.equal(two.code, 0, two.stderr);

    const before = headIndexRefs(repo.root);
    const r = repo.cli('checkpoint', 'restore', '--iteration', '1', '--json');
    assert.equal(headIndexRefs(repo.root), before, 'HEAD, the index and branches are untouched');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json.write, ['in/x.txt']);
    assert.deepEqual(r.json.remove, ['in/new.txt']);
    assert.equal(read(repo, 'in/x.txt'), 'x2\n');
    assert.equal(existsSync(join(repo.root, 'in', 'new.txt')), false);
    assert.equal(existsSync(join(repo.root, 'out')), false, 'nothing outside the cone is written');
    assert.deepEqual(readFileSync(join(repo.root, '.git', 'info', 'sparse-checkout')), sparseFile);
  });

  it('SIGKILL after any git call of a restore: HEAD, index and branches untouched; a second restore finishes', () => {
    const preload = killAfterGitCall();
    let killed = 0;
    for (let k = 1; k <= 30; k++) {
      const repo = makeRepo();
      repo.write('a.txt', 'two\n');
      repo.write('new.txt', 'new\n');
      assert.equal(checkpoint(repo).code, 0);
      repo.write('a.txt', 'three\n');
      repo.write('added.txt', 'added\n');
      unlinkSync(join(repo.root, 'new.txt'));
      repo.write('ignored.log', 'keep me\n');
      assert.equal(checkpoint(repo).code, 0);
      const before = headIndexRefs(repo.root);
      const r = spawnSync(
        process.execPath,
        [
          '--require',
          preload,
          CLI,
          'checkpoint',
          'restore',
          '--root',
          repo.root,
          '--session',
          repo.session,
          '--iteration',
          '1',
        ],
        { env: childEnv({ KILL_AFTER: String(k) }), encoding: 'utf8' },
      );
      assert.equal(headIndexRefs(repo.root), before, `after git call ${k}`);
      assert.equal(read(repo, 'ignored.log'), 'keep me\n');
      if (r.signal !== 'SIGKILL') {
        assert.equal(r.status, 0, r.stderr);
        assert.equal(ledgerRecords(repo).length, 3);
        break; // past the last git call
      }
      killed += 1;
      assert.equal(ledgerRecords(repo).length, 2, 'no pause record for a killed restore');
      // A safety checkpoint written before the kill holds the workspace as it was.
      const safety = sh(repo.root, ['for-each-ref', '--format=%(refname)', 'refs/loop-ledger/s1/1-3']).trim();
      if (safety !== '') {
        assert.equal(sh(repo.root, ['show', `${safety}:a.txt`]), 'three\n');
        assert.equal(sh(repo.root, ['show', `${safety}:added.txt`]), 'added\n');
      }
      // The documented recovery: run the restore again.
      const again = repo.cli('checkpoint', 'restore', '--iteration', '1', '--json');
      assert.equal(again.code, 0, again.stderr);
      assert.equal(read(repo, 'a.txt'), 'two\n');
      assert.equal(read(repo, 'new.txt'), 'new\n');
      assert.equal(existsSync(join(repo.root, 'added.txt')), false);
      assert.equal(read(repo, 'ignored.log'), 'keep me\n');
      assert.equal(headIndexRefs(repo.root), before);
      // And iteration 2's checkpoint still holds the workspace as it was before the restore.
      const two = ledgerRecords(repo)[1]!.checkpoint.ref as string;
      assert.equal(sh(repo.root, ['show', `${two}:a.txt`]), 'three\n');
      assert.equal(sh(repo.root, ['show', `${two}:added.txt`]), 'added\n');
    }
    assert.ok(killed >= 6, `only ${killed} git calls were interrupted`);
  });
});
