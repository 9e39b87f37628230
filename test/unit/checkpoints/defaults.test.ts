// Checkpoints by default, through the real CLI: `run`, `repeat` and `wo run` take one per
// iteration unless --no-checkpoint; `iterate` takes one when the contract says `checkpoint: true`.
// A checkpoint that cannot be taken never stops the loop: the iteration lands with
// `checkpoint_skipped` saying why.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, sampleContract, tempRoot, writeJson } from '../helpers/cli';
import { assertNoStack } from '../cli/setup';
import { runSample, sampleRepo } from '../run/helpers';
import { STEP, workspace } from '../repeat/workspace';
import { makeTask } from '../wo/fixture';
import { woRun } from '../wo/run-helpers';
import { assertGitUntouched, gitState, ledgerRecords, makeRepo, sh } from './repo';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

const loopRefs = (root: string): string[] =>
  sh(root, ['for-each-ref', '--format=%(refname)', 'refs/loop-ledger/'])
    .split('\n')
    .filter((l) => l !== '');

/** A PATH holding `sh` and `node` but no git. */
function pathWithoutGit(): string {
  const bin = tempRoot('loop-ledger-nogit-');
  symlinkSync('/bin/sh', join(bin, 'sh'));
  symlinkSync(process.execPath, join(bin, 'node'));
  return bin;
}

/** Each record's checkpoint is live: its ref names its commit. */
function assertLive(root: string, records: Row[]): void {
  for (const r of records) {
    assert.ok(r.checkpoint, `iteration ${r.n} has no checkpoint (${r.checkpoint_skipped ?? ''})`);
    assert.equal(sh(root, ['rev-parse', r.checkpoint.ref]).trim(), r.checkpoint.commit);
  }
}

describe('checkpoints by default', function () {
  this.timeout(120_000);

  describe('iterate and the contract key', () => {
    function repoWithContract(extra: Record<string, unknown>) {
      const repo = makeRepo();
      const contract = writeJson(
        join(tempRoot('loop-ledger-cp-contract-'), 'contract.json'),
        sampleContract({ iteration_limit: 50, ...extra }),
      );
      const opened = runCli(['open', '--root', repo.root, '--session', 'c1', '--contract', contract]);
      assert.equal(opened.code, 0, opened.stderr);
      const cli = (...args: string[]) =>
        runCli([
          'iterate',
          '--root',
          repo.root,
          '--session',
          'c1',
          '--outcome',
          'continue',
          '--json',
          ...args,
        ]);
      return { ...repo, cli };
    }

    it('checkpoint: true in the contract makes every iterate take one; --no-checkpoint opts one out', () => {
      const repo = repoWithContract({ checkpoint: true });
      repo.write('a.txt', 'changed\n');
      const first = assertGitUntouched(repo.root, () => repo.cli());
      assert.equal(first.code, 0, first.stderr);
      assert.equal(first.json.checkpoint.ref, 'refs/loop-ledger/c1/1-1');
      assert.equal(sh(repo.root, ['show', `${first.json.checkpoint.ref}:a.txt`]), 'changed\n');
      const second = assertGitUntouched(repo.root, () => repo.cli('--no-checkpoint'));
      assert.equal(second.code, 0, second.stderr);
      assert.equal(second.json.checkpoint, undefined);
      assert.equal(second.json.checkpoint_skipped, undefined);
      assert.deepEqual(loopRefs(repo.root), ['refs/loop-ledger/c1/1-1']);
      const both = repo.cli('--checkpoint', '--no-checkpoint');
      assert.equal(both.code, 2);
      assert.match(both.stderr, /--checkpoint and --no-checkpoint/);
      assertNoStack(both.stderr);
    });

    it('a hand-edited ledger whose contract comes after its records still takes the checkpoint', () => {
      // iterate looks for the key ahead of the records before its lock (a hint only); with the
      // contract after them, the look misses and the checkpoint is taken under the lock.
      const repo = repoWithContract({ checkpoint: true });
      const path = join(repo.root, '.loop', 'ledgers', 'c1.json');
      const { iterations, ...rest } = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
      writeFileSync(path, JSON.stringify({ iterations, ...rest }, null, 2) + '\n');
      assert.ok(
        readFileSync(path, 'utf8').indexOf('"iterations"') < readFileSync(path, 'utf8').indexOf('"contract"'),
      );
      repo.write('a.txt', 'changed again\n');
      const r = assertGitUntouched(repo.root, () => repo.cli());
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json.checkpoint.ref, 'refs/loop-ledger/c1/1-1');
      assert.equal(sh(repo.root, ['show', `${r.json.checkpoint.ref}:a.txt`]), 'changed again\n');
    });

    it('a contract without the key (the original engine’s) takes none', () => {
      const repo = repoWithContract({});
      const r = repo.cli();
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json.checkpoint, undefined);
      assert.equal(r.json.checkpoint_skipped, undefined);
      assert.deepEqual(loopRefs(repo.root), []);
    });

    it('a contract whose checkpoint is not a boolean is refused at open, naming the field', () => {
      const root = tempRoot('loop-ledger-cp-bad-');
      const contract = writeJson(join(root, 'contract.json'), sampleContract({ checkpoint: 'yes' }));
      const r = runCli(['open', '--root', root, '--session', 'c1', '--contract', contract]);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /checkpoint: must be true or false/);
      assertNoStack(r.stderr);
    });

    it('without git, the contract’s checkpoint is skipped and the iteration still lands, saying why', () => {
      const repo = repoWithContract({ checkpoint: true });
      const r = runCli(
        ['iterate', '--root', repo.root, '--session', 'c1', '--outcome', 'continue', '--json'],
        { env: { PATH: pathWithoutGit() } },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json.checkpoint, undefined);
      assert.match(r.json.checkpoint_skipped, /no git program could be run/);
      assert.equal(
        ledgerRecords({ ...repo, session: 'c1' })[0]!.checkpoint_skipped,
        r.json.checkpoint_skipped,
      );
    });
  });

  describe('run', () => {
    it('each attempt’s iteration carries a live checkpoint of the workspace the agents left', () => {
      const repo = sampleRepo();
      const before = gitState(repo);
      const r = runSample(repo, 'repair', ['--session', 'h1']);
      assert.equal(r.code, 0, r.stderr);
      const records = ledgerRecords({ root: repo, session: 'h1' } as never);
      assert.equal(records.length, 2);
      assertLive(repo, records);
      assert.deepEqual(
        records.map((x) => x.checkpoint.ref),
        ['refs/loop-ledger/h1/1-1', 'refs/loop-ledger/h1/1-2'],
      );
      // The agents' edits are in the last checkpoint; branches, HEAD and the stash are as before.
      const changed = sh(repo, ['diff', '--name-only', 'HEAD', records[1]!.checkpoint.commit]).trim();
      assert.notEqual(changed, '');
      const after = JSON.parse(gitState(repo));
      const was = JSON.parse(before);
      assert.equal(after.refs, was.refs);
      assert.equal(after.head, was.head);
    });

    it('--no-checkpoint takes none', () => {
      const repo = sampleRepo();
      const r = runSample(repo, 'pass', ['--session', 'h2', '--no-checkpoint']);
      assert.equal(r.code, 0, r.stderr);
      const records = ledgerRecords({ root: repo, session: 'h2' } as never);
      assert.ok(records.length >= 1);
      for (const x of records) assert.equal(x.checkpoint ?? x.checkpoint_skipped, undefined);
      assert.deepEqual(loopRefs(repo), []);
    });

    it('a checkpoint that cannot be taken does not stop the run: the record says why', () => {
      const repo = sampleRepo();
      const r = runSample(repo, 'pass', ['--session', 'h3'], { LOOP_LEDGER_CHECKPOINT_MAX_MB: 'lots' });
      assert.equal(r.code, 0, r.stderr);
      const records = ledgerRecords({ root: repo, session: 'h3' } as never);
      assert.ok(records.length >= 1);
      for (const x of records) {
        assert.equal(x.checkpoint, undefined);
        assert.match(x.checkpoint_skipped, /LOOP_LEDGER_CHECKPOINT_MAX_MB/);
      }
    });
  });

  describe('repeat', () => {
    const NONE = 'Analysis complete. No recommendations.';

    for (const kind of ['git', 'fs'] as const) {
      it(`each recorded run carries a checkpoint (${kind} workspace)`, () => {
        const ws = workspace(kind);
        ws.setPlan([{ summary: 'Applied 1 fix', files: { 'src/a.txt': 'one' } }, { summary: NONE }]);
        const run = () => ws.repeat('--json', '--non-interactive', '--', 'node', STEP);
        const r = kind === 'git' ? assertHeadAndBranches(ws.root, run) : run();
        assert.equal(r.code, 0, r.stderr);
        const records: Row[] = ws.ledger().iterations;
        assert.ok(records.length >= 2);
        for (const x of records) assert.equal(x.checkpoint?.shadow, kind === 'fs', JSON.stringify(x));
        const gitDir = kind === 'fs' ? ['--git-dir', join(ws.root, '.loop', 'checkpoints.git')] : [];
        const first = records[0]!.checkpoint;
        assert.equal(sh(ws.root, [...gitDir, 'show', `${first.ref}:src/a.txt`]), 'one');
      });
    }

    it('--no-checkpoint takes none; without git an fs repeat records why and settles', () => {
      const off = workspace('git');
      off.setPlan([{ summary: 'Applied 1 fix', files: { 'src/a.txt': 'one' } }, { summary: NONE }]);
      const r = off.repeat('--json', '--non-interactive', '--no-checkpoint', '--', 'node', STEP);
      assert.equal(r.code, 0, r.stderr);
      for (const x of off.ledger().iterations as Row[])
        assert.equal(x.checkpoint ?? x.checkpoint_skipped, undefined);
      assert.deepEqual(loopRefs(off.root), []);

      const ws = workspace('fs');
      ws.setPlan([{ summary: 'Applied 1 fix', files: { 'src/a.txt': 'one' } }, { summary: NONE }]);
      const noGit = runCli(
        [
          'repeat',
          '--root',
          ws.root,
          '--session',
          ws.session,
          '--json',
          '--non-interactive',
          '--recipe',
          'fs',
          '--',
          process.execPath,
          STEP,
        ],
        { env: { PATH: pathWithoutGit(), REPEAT_PLAN: ws.plan, CI: '' } },
      );
      assert.equal(noGit.code, 0, noGit.stderr);
      const records: Row[] = ws.ledger().iterations;
      assert.ok(records.length >= 2);
      for (const x of records) {
        assert.equal(x.checkpoint, undefined);
        assert.match(x.checkpoint_skipped, /no git program could be run/);
      }
    });
  });

  describe('wo run', () => {
    it('phase iterations carry checkpoints when the ledger root is the code work tree', () => {
      const t = makeTask([{ n: 1 }], { git: true });
      // The ledgers and the fake agents' files live in the work tree: keep them out of its status.
      writeFileSync(join(t.worktree, '.gitignore'), '.loop/\nplan.json\nagent-calls.log\n');
      execFileSync('git', ['add', '.gitignore'], { cwd: t.worktree });
      execFileSync('git', ['commit', '-qm', 'ignore'], { cwd: t.worktree });
      const r = woRun({ ...t, root: t.worktree });
      assert.equal(r.code, 0, r.stderr);
      const records: Row[] = ledgerRecords({ root: t.worktree, session: 'wo-01' } as never);
      assert.deepEqual(
        records.map((x) => x.actions[0]),
        ['wo-01/a1/build', 'wo-01/a1/review', 'wo-01/a1/critique'],
      );
      assertLive(t.worktree, records);
    });

    it('builds in another work tree than the root: the record says so; --no-checkpoint records nothing', () => {
      const t = makeTask([{ n: 1 }], { git: true });
      const r = woRun(t);
      assert.equal(r.code, 0, r.stderr);
      const records: Row[] = ledgerRecords({ root: t.root, session: 'wo-01' } as never);
      assert.equal(records.length, 3);
      for (const x of records) {
        assert.equal(x.checkpoint, undefined);
        assert.match(x.checkpoint_skipped, /outside the ledger's root/);
      }
      const u = makeTask([{ n: 1 }], { git: true });
      const off = woRun(u, { extra: ['--no-checkpoint'] });
      assert.equal(off.code, 0, off.stderr);
      for (const x of ledgerRecords({ root: u.root, session: 'wo-01' } as never))
        assert.equal(x.checkpoint ?? x.checkpoint_skipped, undefined);
    });
  });
});

/** Runs `fn`, asserting HEAD and the branches did not move (the step itself edits files). */
function assertHeadAndBranches<T>(root: string, fn: () => T): T {
  const was = JSON.parse(gitState(root));
  const result = fn();
  const now = JSON.parse(gitState(root));
  assert.equal(now.refs, was.refs);
  assert.equal(now.head, was.head);
  return result;
}
