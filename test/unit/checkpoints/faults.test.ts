// Faults while a checkpoint is taken: the CLI killed (SIGKILL) after each git call it makes.
// Whatever the moment, there is no ref or a complete one (its commit and tree readable), no
// record without its ref, and the user's git state is as it was.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, childEnv, tempRoot } from '../helpers/cli';
import { gitState, ledgerRecords, makeRepo, sh } from './repo';

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
  if (file === 'git' && Array.isArray(args) && !args.includes('--version')) {
    calls += 1;
    if (calls === Number(process.env.KILL_AFTER)) process.kill(process.pid, 'SIGKILL');
  }
  return r;
};
`,
  );
  return path;
}

describe('checkpoints: SIGKILL while taking one', function () {
  this.timeout(180_000);

  it('after any git call: no ref or a complete one, and the user git untouched', () => {
    const preload = killAfterGitCall();
    let killed = 0;
    for (let k = 1; k <= 12; k++) {
      const repo = makeRepo();
      repo.write('a.txt', `changed ${k}\n`);
      repo.write('untracked.txt', 'u\n');
      const before = gitState(repo.root);
      const r = spawnSync(
        process.execPath,
        [
          '--require',
          preload,
          CLI,
          'iterate',
          '--root',
          repo.root,
          '--session',
          repo.session,
          '--outcome',
          'continue',
          '--checkpoint',
        ],
        { env: childEnv({ KILL_AFTER: String(k) }), encoding: 'utf8' },
      );
      assert.equal(gitState(repo.root), before, `after git call ${k}`);
      const refs = sh(repo.root, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/loop-ledger'])
        .split('\n')
        .filter(Boolean);
      for (const line of refs) {
        const [commit] = line.split(' ');
        sh(repo.root, ['cat-file', '-e', `${commit}^{tree}`]);
        assert.equal(sh(repo.root, ['show', `${commit}:a.txt`]), `changed ${k}\n`);
      }
      const records = ledgerRecords(repo);
      for (const rec of records)
        assert.ok(rec.checkpoint && refs.some((l) => l.endsWith(rec.checkpoint.ref)));
      if (r.signal === 'SIGKILL') {
        killed += 1;
        assert.equal(records.length, 0, 'killed before the record was written');
      } else {
        assert.equal(r.status, 0, r.stderr);
        assert.equal(records.length, 1);
        break; // past the last git call
      }
      // The next iterate after a killed one takes its checkpoint normally.
      const next = repo.cli('iterate', '--outcome', 'continue', '--checkpoint', '--json');
      assert.equal(next.code, 0, next.stderr);
    }
    assert.ok(killed >= 5, `only ${killed} git calls were interrupted`);
  });
});
