// `iterate --checkpoint` through the real CLI on real repositories: what a checkpoint holds and
// leaves out, and that the user's git is untouched whatever state it is in.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCliAsync, tempRoot } from '../helpers/cli';
import { assertNoStack } from '../cli/setup';
import { takeSnapshot } from '../../../src/drivers/checkpoints/snapshot';
import { openWorkspace } from '../../../src/drivers/checkpoints/workspace';
import { assertGitUntouched, checkpoint, ledgerRecords, makeRepo, sh } from './repo';

function treeOf(root: string, ref: string): string[] {
  return sh(root, ['ls-tree', '-r', '-z', '--full-tree', ref])
    .split('\0')
    .filter((l) => l !== '');
}

describe('checkpoints: iterate --checkpoint', function () {
  this.timeout(60_000);

  it('records an additive checkpoint key and a private ref; tracked, modified and untracked files are in it', () => {
    const repo = makeRepo();
    repo.write('a.txt', 'two\n');
    repo.write('new.txt', 'new\n');
    repo.write('ignored.log', 'ignored\n');
    const r = checkpoint(repo);
    assert.equal(r.code, 0, r.stderr);
    const cp = r.json.checkpoint;
    assert.match(cp.commit, /^[0-9a-f]{40}$/);
    assert.equal(cp.ref, 'refs/loop-ledger/s1/1-1');
    assert.deepEqual(cp.excluded, []);
    assert.equal(cp.head, sh(repo.root, ['rev-parse', 'HEAD']).trim());
    assert.equal(sh(repo.root, ['rev-parse', cp.ref]).trim(), cp.commit);
    const tree = treeOf(repo.root, cp.ref).map((l) => l.split('\t')[1]);
    assert.deepEqual(tree, ['.gitignore', 'a.txt', 'new.txt']);
    assert.equal(sh(repo.root, ['show', `${cp.ref}:a.txt`]), 'two\n');
    // The record on disk carries the key; every other key is the original engine's.
    const [record] = ledgerRecords(repo);
    assert.deepEqual(record!.checkpoint, cp);
  });

  it('a detached HEAD, staged changes and a stash are left exactly as they were', () => {
    const repo = makeRepo();
    repo.write('a.txt', 'stashed\n');
    sh(repo.root, ['stash', '-q']);
    sh(repo.root, ['checkout', '-q', '--detach']);
    repo.write('a.txt', 'staged\n');
    sh(repo.root, ['add', 'a.txt']);
    repo.write('a.txt', 'worktree\n');
    const r = checkpoint(repo);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(sh(repo.root, ['show', `${r.json.checkpoint.ref}:a.txt`]), 'worktree\n');
    assert.equal(sh(repo.root, ['show', ':a.txt']), 'staged\n');
  });

  it('leaves out an untracked 50 MB file and a nested repository, and lists them', () => {
    const repo = makeRepo();
    writeFileSync(join(repo.root, 'huge.bin'), '');
    truncateSync(join(repo.root, 'huge.bin'), 50 * 1024 * 1024);
    mkdirSync(join(repo.root, 'nested'));
    sh(join(repo.root, 'nested'), ['init', '-q']);
    writeFileSync(join(repo.root, 'nested', 'inner.txt'), 'inner\n');
    sh(join(repo.root, 'nested'), ['add', 'inner.txt']);
    sh(join(repo.root, 'nested'), ['commit', '-qm', 'inner']);
    repo.write('small.txt', 'small\n');
    const r = checkpoint(repo);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json.checkpoint.excluded, [
      { path: 'huge.bin', reason: 'too-large', bytes: 50 * 1024 * 1024 },
      { path: 'nested', reason: 'nested-repository' },
    ]);
    const paths = treeOf(repo.root, r.json.checkpoint.ref).map((l) => l.split('\t')[1]);
    assert.deepEqual(paths, ['.gitignore', 'a.txt', 'small.txt']);
  });

  it('a submodule is left out and listed; its gitlink stays as the index has it', () => {
    const inner = makeRepo();
    const repo = makeRepo();
    sh(repo.root, ['-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', inner.root, 'mod']);
    sh(repo.root, ['commit', '-qm', 'add submodule']);
    writeFileSync(join(repo.root, 'mod', 'a.txt'), 'changed inside\n');
    const r = checkpoint(repo);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json.checkpoint.excluded, [{ path: 'mod', reason: 'submodule' }]);
  });

  it('file names beginning with -, with spaces and with newlines are stored as they are', () => {
    const repo = makeRepo();
    const names = ['-n', '--force', 'with space.txt', 'new\nline.txt', ':(exclude)x'];
    for (const name of names) repo.write(name, `${name}\n`);
    const r = checkpoint(repo);
    assert.equal(r.code, 0, r.stderr);
    const paths = sh(repo.root, ['ls-tree', '-r', '-z', '--name-only', r.json.checkpoint.ref]).split('\0');
    for (const name of names) assert.ok(paths.includes(name), `${JSON.stringify(name)} missing`);
  });

  it('a symlink pointing outside the workspace is recorded as a link', () => {
    const repo = makeRepo();
    const outside = join(tempRoot('loop-ledger-outside-'), 'secret.txt');
    writeFileSync(outside, 'outside\n');
    symlinkSync(outside, join(repo.root, 'link'));
    const r = checkpoint(repo);
    assert.equal(r.code, 0, r.stderr);
    const line = treeOf(repo.root, r.json.checkpoint.ref).find((l) => l.endsWith('\tlink'));
    assert.match(line ?? '', /^120000 blob /);
    assert.equal(sh(repo.root, ['cat-file', 'blob', `${r.json.checkpoint.ref}:link`]), outside);
  });

  it('a workspace that is not a git repository gets a shadow repository under .loop', () => {
    const repo = makeRepo({ git: false });
    repo.write('b.txt', 'b\n');
    const r = repo.cli('iterate', '--outcome', 'continue', '--checkpoint', '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.checkpoint.shadow, true);
    assert.equal(r.json.checkpoint.head, null);
    const shadow = join(repo.root, '.loop', 'checkpoints.git');
    const paths = sh(repo.root, [
      `--git-dir=${shadow}`,
      'ls-tree',
      '-r',
      '--name-only',
      r.json.checkpoint.ref,
    ]);
    assert.equal(paths, 'a.txt\nb.txt\n');
  });

  it('an LFS filter configured without git-lfs is a clear refusal that writes nothing', () => {
    const repo = makeRepo();
    sh(repo.root, ['config', 'filter.lfs.clean', 'git-lfs clean -- %f']);
    sh(repo.root, ['config', 'filter.lfs.required', 'true']);
    const r = assertGitUntouched(repo.root, () =>
      repo.cli('iterate', '--outcome', 'continue', '--checkpoint'),
    );
    assert.equal(r.code, 3);
    assert.match(r.stderr, /git-lfs is not installed/);
    assertNoStack(r.stderr);
    assert.equal(ledgerRecords(repo).length, 0);
    assert.equal(sh(repo.root, ['for-each-ref', 'refs/loop-ledger']), '');
  });

  it('a refused iteration creates no ref', () => {
    const repo = makeRepo();
    const r = assertGitUntouched(repo.root, () =>
      repo.cli('iterate', '--outcome', 'continue', '--checkpoint', '--measure', 'nope=1'),
    );
    assert.notEqual(r.code, 0);
    assert.equal(sh(repo.root, ['for-each-ref', 'refs/loop-ledger']), '');
  });

  it('two iterates checkpointing at once each get their own ref and record', async () => {
    const repo = makeRepo();
    repo.write('b.txt', 'b\n');
    const before = sh(repo.root, ['--no-optional-locks', 'status', '--porcelain=v2']);
    const args = [
      'iterate',
      '--root',
      repo.root,
      '--session',
      repo.session,
      '--outcome',
      'continue',
      '--checkpoint',
      '--json',
    ];
    const results = await Promise.all([runCliAsync(args), runCliAsync(args)]);
    const ok = results.filter((r) => r.code === 0);
    for (const r of results) if (r.code !== 0) assert.equal(r.code, 3, r.stderr); // busy lock, nothing written
    const refs = sh(repo.root, ['for-each-ref', '--format=%(refname)', 'refs/loop-ledger'])
      .split('\n')
      .filter(Boolean);
    assert.equal(refs.length, ok.length);
    const records = ledgerRecords(repo);
    assert.equal(records.length, ok.length);
    assert.deepEqual(records.map((x) => x.checkpoint.ref).sort(), refs.sort());
    assert.equal(sh(repo.root, ['--no-optional-locks', 'status', '--porcelain=v2']), before);
    assert.equal(readFileSync(join(repo.root, 'b.txt'), 'utf8'), 'b\n');
  });
});

describe('checkpoints: one commit per snapshot', function () {
  this.timeout(60_000);

  // Two iterates that checkpoint the same tree within one second once wrote the same commit; the
  // one that lost the lock then deleted the winner's ref, taking it for its own ref made ahead
  // (ownership is told by the commit id): a record named a ref that no longer existed.
  it('two snapshots of one tree at the same second are two commits of one tree', () => {
    const repo = makeRepo();
    repo.write('b.txt', 'b\n');
    const now = new Date('2026-12-02T12:00:00.000Z');
    const options = { maxFileBytes: 10 * 1024 * 1024, now, message: 'loop-ledger checkpoint s' };
    const a = takeSnapshot(openWorkspace(repo.root), options);
    const b = takeSnapshot(openWorkspace(repo.root), options);
    assert.equal(a.tree, b.tree);
    assert.notEqual(a.commit, b.commit);
  });
});

describe('checkpoints: a .loop folder git does not ignore', function () {
  this.timeout(60_000);

  it('is still never part of a checkpoint', () => {
    const repo = makeRepo({ ignoreLoop: false });
    repo.write('b.txt', 'b\n');
    const r = checkpoint(repo);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      treeOf(repo.root, r.json.checkpoint.ref).map((l) => l.split('\t')[1]),
      ['.gitignore', 'a.txt', 'b.txt'],
    );
  });
});
