// Faults while a checkpoint is taken: the CLI killed (SIGKILL) after each git call it makes.
// And a restore, which writes its files outside the ledger's lock: alone, beside another
// restore, and beside an iterate.
// Whatever the moment, there is no ref or a complete one (its commit and tree readable), no
// record without its ref, and the user's git state is as it was.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, childEnv, ledgerPath, sampleContract, tempRoot } from '../helpers/cli';
import { assertGitUntouched, checkpoint, gitState, ledgerRecords, makeRepo, sh } from './repo';

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

/**
 * A preload that notes, for every git the CLI runs, whether the ledger's lock file exists at that
 * moment (written to LOG), and SIGKILLs the process after the git call KILL_AFTER (when set).
 */
function gitWatcher(): string {
  const path = join(tempRoot('loop-ledger-watch-'), 'watch.cjs');
  writeFileSync(
    path,
    `const cp = require('child_process');
const fs = require('fs');
const real = cp.spawnSync;
let calls = 0;
cp.spawnSync = function (file, args) {
  if (file === 'git') {
    const locked = fs.existsSync(process.env.LOCK_FILE);
    const verb = args.find((a, i) => i > 0 && args[i - 1] !== '-c' && !a.startsWith('-'));
    fs.appendFileSync(process.env.LOG, (locked ? 'locked ' : 'free ') + verb + '\\n');
  }
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

describe('checkpoints: the ref before the record, outside the lock', function () {
  this.timeout(180_000);
  const watcher = gitWatcher();

  const watched = (repo: ReturnType<typeof makeRepo>, killAfter?: number, ...extra: string[]) => {
    const log = join(tempRoot('loop-ledger-log-'), 'git.log');
    writeFileSync(log, '');
    const r = spawnSync(
      process.execPath,
      [
        '--require',
        watcher,
        CLI,
        'iterate',
        '--root',
        repo.root,
        '--session',
        repo.session,
        '--outcome',
        'continue',
        '--json',
        ...extra,
      ],
      {
        env: childEnv({
          LOG: log,
          LOCK_FILE: `${ledgerPath(repo.root, repo.session)}.lock`,
          ...(killAfter ? { KILL_AFTER: String(killAfter) } : {}),
        }),
        encoding: 'utf8',
      },
    );
    return { r, calls: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
  };

  const refsOf = (root: string) =>
    sh(root, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/loop-ledger'])
      .split('\n')
      .filter(Boolean);

  it('no git runs while the ledger is locked; the ref is made before the record', () => {
    const repo = makeRepo();
    repo.write('a.txt', 'changed\n');
    const before = gitState(repo.root);
    const { r, calls } = watched(repo, undefined, '--checkpoint');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(gitState(repo.root), before);
    assert.ok(calls.length >= 5, calls.join(', '));
    assert.deepEqual(
      calls.filter((c) => c.startsWith('locked')),
      [],
      `git under the ledger's lock: ${calls.join(', ')}`,
    );
    assert.equal(calls[calls.length - 1], 'free update-ref', calls.join(', '));
    const record = JSON.parse(r.stdout);
    assert.deepEqual(refsOf(repo.root), [`${record.checkpoint.commit} ${record.checkpoint.ref}`]);
    // The same for an iterate whose contract asks (the default path run, repeat and wo share).
    const contract = join(tempRoot('loop-ledger-cp-contract-'), 'contract.json');
    writeFileSync(contract, JSON.stringify({ ...sampleContract({ iteration_limit: 50 }), checkpoint: true }));
    const other = makeRepo();
    assert.equal(other.cli('open', '--contract', contract, '--force').code, 0);
    other.write('a.txt', 'other\n');
    const byContract = watched(other);
    assert.equal(byContract.r.status, 0, byContract.r.stderr);
    assert.deepEqual(
      byContract.calls.filter((c) => c.startsWith('locked')),
      [],
      byContract.calls.join(', '),
    );
    assert.ok(JSON.parse(byContract.r.stdout).checkpoint.ref, byContract.r.stdout);
  });

  it('SIGKILL between the ref and the record: a complete ref no record names, replaced by the next iterate and dropped by prune', () => {
    const repo = makeRepo();
    repo.write('a.txt', 'first\n');
    const before = gitState(repo.root);
    // The ref is the last git call of a checkpoint taken outside the lock.
    const probe = watched(makeRepoLike(repo), undefined, '--checkpoint');
    const last = probe.calls.length;
    const killed = watched(repo, last, '--checkpoint');
    assert.equal(killed.r.signal, 'SIGKILL');
    assert.equal(gitState(repo.root), before);
    assert.equal(ledgerRecords(repo).length, 0);
    const orphan = refsOf(repo.root);
    assert.equal(orphan.length, 1, 'the ref was written before the kill');
    const [orphanCommit, orphanRef] = (orphan[0] as string).split(' ');
    assert.equal(orphanRef, 'refs/loop-ledger/s1/1-1');
    assert.equal(sh(repo.root, ['show', `${orphanCommit}:a.txt`]), 'first\n');
    // No record names it: list shows nothing; the next iterate of that number replaces it.
    assert.deepEqual(repo.cli('checkpoint', 'list', '--json').json.checkpoints, []);
    repo.write('a.txt', 'second\n');
    const next = watched(repo, undefined, '--checkpoint');
    assert.equal(next.r.status, 0, next.r.stderr);
    const record = JSON.parse(next.r.stdout);
    assert.equal(record.checkpoint.ref, 'refs/loop-ledger/s1/1-1');
    assert.deepEqual(refsOf(repo.root), [`${record.checkpoint.commit} refs/loop-ledger/s1/1-1`]);
    assert.equal(sh(repo.root, ['show', `${record.checkpoint.commit}:a.txt`]), 'second\n');
    // It found the old ref there, so it made its own under the lock (the one case git runs there).
    assert.deepEqual(
      next.calls.filter((c) => c.startsWith('locked')),
      ['locked update-ref'],
    );
    // A killed checkpoint whose number a plain iterate then records: a ref no record will name.
    repo.write('a.txt', 'third\n');
    const again = watched(repo, last, '--checkpoint');
    assert.equal(again.r.signal, 'SIGKILL');
    assert.equal(repo.cli('iterate', '--outcome', 'continue').code, 0);
    assert.equal(refsOf(repo.root).length, 2);
    const pruned = assertGitUntouched(repo.root, () =>
      repo.cli('checkpoint', 'prune', '--keep', '5', '--json'),
    );
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.deepEqual(pruned.json.kept, ['refs/loop-ledger/s1/1-1']);
    assert.deepEqual(pruned.json.pruned, ['refs/loop-ledger/s1/1-2']);
    assert.deepEqual(refsOf(repo.root), [`${record.checkpoint.commit} refs/loop-ledger/s1/1-1`]);
  });
});

/** A fresh repository in the same state as `repo` (to count a checkpoint's git calls). */
function makeRepoLike(repo: ReturnType<typeof makeRepo>): ReturnType<typeof makeRepo> {
  const other = makeRepo();
  other.write('a.txt', readFileSync(join(repo.root, 'a.txt'), 'utf8'));
  return other;
}

describe('checkpoints: a restore writes its files outside the ledger lock', function () {
  this.timeout(240_000);
  const watcher = gitWatcher();

  /** HEAD, the index and the branches (a restore changes the working tree's status on purpose). */
  const headIndexRefs = (root: string) => {
    const state = JSON.parse(gitState(root)) as Record<string, string>;
    return JSON.stringify({ ...state, status: undefined });
  };

  /** The CLI with the watcher preloaded, as a promise (so two can run at once). */
  const run = (repo: ReturnType<typeof makeRepo>, ...args: string[]) => {
    const log = join(tempRoot('loop-ledger-log-'), 'git.log');
    writeFileSync(log, '');
    const child = spawn(
      process.execPath,
      ['--require', watcher, CLI, ...args, '--root', repo.root, '--session', repo.session, '--json'],
      {
        env: childEnv({ LOG: log, LOCK_FILE: `${ledgerPath(repo.root, repo.session)}.lock` }),
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise<{ code: number | null; stdout: string; stderr: string; calls: string[] }>((done) =>
      child.on('close', (code) =>
        done({ code, stdout, stderr, calls: readFileSync(log, 'utf8').split('\n').filter(Boolean) }),
      ),
    );
  };

  /** Iterations 1 and 2 checkpointed with a.txt "one" and "two"; the workspace then at "three". */
  const twoCheckpoints = () => {
    const repo = makeRepo();
    repo.write('a.txt', 'one\n');
    assert.equal(checkpoint(repo).code, 0);
    repo.write('a.txt', 'two\n');
    repo.write('b.txt', 'b\n');
    assert.equal(checkpoint(repo).code, 0);
    repo.write('a.txt', 'three\n');
    return repo;
  };
  const read = (repo: ReturnType<typeof makeRepo>, path: string) =>
    readFileSync(join(repo.root, path), 'utf8');
  const refsOf = (root: string) =>
    sh(root, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/loop-ledger'])
      .split('\n')
      .filter(Boolean)
      .sort();
  const recordRefs = (repo: ReturnType<typeof makeRepo>) =>
    ledgerRecords(repo)
      .map((rec) => `${rec.checkpoint.commit} ${rec.checkpoint.ref}`)
      .sort();

  it('no git runs under the ledger lock; the safety ref is made before any file is written', async () => {
    const repo = twoCheckpoints();
    const before = headIndexRefs(repo.root);
    const r = await run(repo, 'checkpoint', 'restore', '--iteration', '1');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(headIndexRefs(repo.root), before);
    assert.deepEqual(
      r.calls.filter((c) => c.startsWith('locked')),
      [],
      `git under the ledger's lock: ${r.calls.join(', ')}`,
    );
    const ref = r.calls.indexOf('free update-ref');
    assert.ok(ref >= 0 && ref < r.calls.indexOf('free checkout-index'), r.calls.join(', '));
    assert.equal(read(repo, 'a.txt'), 'one\n');
    assert.equal(existsSync(join(repo.root, 'b.txt')), false);
    // The pause record says exactly what was restored, and its checkpoint is the workspace before.
    const pause = ledgerRecords(repo)[2]!;
    assert.equal(pause.outcome, 'pause');
    assert.match(String(pause.note), /restored the workspace to iteration 1: 1 file\(s\) written, 1 removed/);
    assert.equal(pause.checkpoint.ref, 'refs/loop-ledger/s1/1-3');
    assert.equal(sh(repo.root, ['show', `${pause.checkpoint.ref}:a.txt`]), 'three\n');
    assert.deepEqual(JSON.parse(r.stdout).write, ['a.txt']);
    assert.deepEqual(JSON.parse(r.stdout).remove, ['b.txt']);
  });

  it('two restores at once: one restores and records its pause; the other, finding the loop paused, writes nothing', async () => {
    const repo = twoCheckpoints();
    const before = headIndexRefs(repo.root);
    const [one, two] = await Promise.all([
      run(repo, 'checkpoint', 'restore', '--iteration', '1'),
      run(repo, 'checkpoint', 'restore', '--iteration', '2'),
    ]);
    assert.equal(headIndexRefs(repo.root), before);
    // A pause closes the loop: whichever restore took the restore lock second is refused before
    // it takes a ref or writes a file.
    assert.deepEqual([one.code, two.code].sort(), [0, 3], `${one.stderr} ${two.stderr}`);
    const [won, lost] = one.code === 0 ? [1, two] : [2, one];
    assert.match(lost.stderr, /closed \(pause\)/);
    const records = ledgerRecords(repo);
    assert.equal(records.length, 3);
    const pause = records[2]!;
    assert.match(String(pause.note), new RegExp(`to iteration ${won}:`));
    assert.equal(sh(repo.root, ['show', `${pause.checkpoint.ref}:a.txt`]), 'three\n');
    assert.equal(read(repo, 'a.txt'), won === 1 ? 'one\n' : 'two\n');
    assert.equal(existsSync(join(repo.root, 'b.txt')), won === 2);
    assert.deepEqual(refsOf(repo.root), recordRefs(repo));
    assert.equal(existsSync(join(repo.root, '.loop', 'restore.lock')), false);
  });

  it('a restore and an iterate --checkpoint at once: every record has its own complete ref, no ref is left over', async () => {
    const repo = twoCheckpoints();
    const [restore, iterate] = await Promise.all([
      run(repo, 'checkpoint', 'restore', '--iteration', '1'),
      run(repo, 'iterate', '--outcome', 'continue', '--checkpoint'),
    ]);
    assert.equal(restore.code, 0, restore.stderr);
    const records = ledgerRecords(repo);
    // The iterate lands first, or finds the loop paused by the restore and is refused.
    if (iterate.code === 0) assert.equal(records.length, 4);
    else {
      assert.equal(iterate.code, 3, iterate.stderr);
      assert.equal(records.length, 3);
    }
    assert.deepEqual(refsOf(repo.root), recordRefs(repo));
    for (const rec of records) sh(repo.root, ['cat-file', '-e', `${rec.checkpoint.commit}^{tree}`]);
    const pause = records.find((rec) => rec.outcome === 'pause')!;
    assert.equal(sh(repo.root, ['show', `${pause.checkpoint.ref}:a.txt`]), 'three\n');
    assert.equal(read(repo, 'a.txt'), 'one\n');
  });
});
