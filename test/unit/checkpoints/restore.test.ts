// `loop-ledger checkpoint list|diff|restore|prune` through the real CLI on real repositories.
import assert from 'node:assert/strict';
import {
  existsSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { ledgerPath, tempRoot } from '../helpers/cli';
import { assertNoStack } from '../cli/setup';
import { assertGitUntouched, checkpoint, gitState, ledgerRecords, makeRepo, sh, type Repo } from './repo';

const read = (repo: Repo, path: string) => readFileSync(join(repo.root, path), 'utf8');

function indexBytes(repo: Repo): Buffer {
  return readFileSync(join(repo.root, '.git', 'index'));
}

/** Iteration 1: a.txt=two, new.txt; iteration 2: a.txt=three, added.txt, no new.txt, an ignored file. */
function twoIterations(options: { git?: boolean } = {}): Repo {
  const repo = makeRepo(options);
  repo.write('a.txt', 'two\n');
  repo.write('new.txt', 'new\n');
  const one =
    options.git === false ? repo.cli('iterate', '--outcome', 'continue', '--checkpoint') : checkpoint(repo);
  assert.equal(one.code, 0, one.stderr);
  repo.write('a.txt', 'three\n');
  repo.write('added.txt', 'added\n');
  unlinkSync(join(repo.root, 'new.txt'));
  repo.write('ignored.log', 'keep me\n');
  const two =
    options.git === false ? repo.cli('iterate', '--outcome', 'continue', '--checkpoint') : checkpoint(repo);
  assert.equal(two.code, 0, two.stderr);
  return repo;
}

function refused(repo: Repo, args: string[], pattern: RegExp): void {
  const files = ['a.txt', 'added.txt'].map((p) => (existsSync(join(repo.root, p)) ? read(repo, p) : null));
  const ledger = readFileSync(ledgerPath(repo.root, repo.session));
  const r = assertGitUntouched(repo.root, () => repo.cli('checkpoint', 'restore', ...args));
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, pattern);
  assertNoStack(r.stderr);
  assert.deepEqual(
    ['a.txt', 'added.txt'].map((p) => (existsSync(join(repo.root, p)) ? read(repo, p) : null)),
    files,
  );
  assert.deepEqual(readFileSync(ledgerPath(repo.root, repo.session)), ledger);
}

describe('checkpoints: list, diff, restore, prune', function () {
  this.timeout(90_000);

  it('restore writes the files of iteration N, removes files added since, keeps ignored files, records a pause', () => {
    const repo = twoIterations();
    const index = indexBytes(repo);
    const head = sh(repo.root, ['rev-parse', 'HEAD']);
    const r = repo.cli('checkpoint', 'restore', '--iteration', '1', '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json.write.sort(), ['a.txt', 'new.txt']);
    assert.deepEqual(r.json.remove, ['added.txt']);
    assert.equal(read(repo, 'a.txt'), 'two\n');
    assert.equal(read(repo, 'new.txt'), 'new\n');
    assert.equal(existsSync(join(repo.root, 'added.txt')), false);
    assert.equal(read(repo, 'ignored.log'), 'keep me\n');
    assert.deepEqual(indexBytes(repo), index, 'the index is not touched by a restore');
    assert.equal(sh(repo.root, ['rev-parse', 'HEAD']), head);
    const records = ledgerRecords(repo);
    const pause = records[records.length - 1]!;
    assert.equal(pause.outcome, 'pause');
    assert.match(pause.note, /restored the workspace to iteration 1: 2 file\(s\) written, 1 removed/);
    assert.equal(pause.checkpoint.ref, 'refs/loop-ledger/s1/1-3');
    assert.equal(r.json.safety_ref, pause.checkpoint.ref);
    // The pause iteration's checkpoint is the workspace before the restore: restoring it undoes it.
    assert.equal(repo.cli('resume').code, 0);
    const back = repo.cli('checkpoint', 'restore', '--iteration', '3', '--json');
    assert.equal(back.code, 0, back.stderr);
    assert.equal(read(repo, 'a.txt'), 'three\n');
    assert.equal(read(repo, 'added.txt'), 'added\n');
    assert.equal(existsSync(join(repo.root, 'new.txt')), false);
  });

  it('--dry-run lists the files and changes nothing', () => {
    const repo = twoIterations();
    const ledger = readFileSync(ledgerPath(repo.root, repo.session));
    const r = assertGitUntouched(repo.root, () =>
      repo.cli('checkpoint', 'restore', '--iteration', '1', '--dry-run'),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /would restore iteration 1\nwrite\ta\.txt\nwrite\tnew\.txt\nremove\tadded\.txt/);
    assert.equal(read(repo, 'a.txt'), 'three\n');
    assert.deepEqual(readFileSync(ledgerPath(repo.root, repo.session)), ledger);
    assert.equal(sh(repo.root, ['for-each-ref', 'refs/loop-ledger']).split('\n').filter(Boolean).length, 2);
  });

  it('refuses when HEAD has moved or changes are staged, unless --force', () => {
    const repo = twoIterations();
    repo.write('c.txt', 'c\n');
    sh(repo.root, ['add', 'c.txt']);
    refused(repo, ['--iteration', '1'], /staged changes/);
    sh(repo.root, ['commit', '-qm', 'moved']);
    refused(repo, ['--iteration', '1'], /HEAD has moved/);
    const r = repo.cli('checkpoint', 'restore', '--iteration', '1', '--force');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(read(repo, 'a.txt'), 'two\n');
  });

  it('refuses mid-merge and mid-rebase, even with --force', () => {
    const repo = twoIterations();
    const base = sh(repo.root, ['rev-parse', 'HEAD']).trim();
    // A conflicting branch, then a merge that stops on the conflict.
    sh(repo.root, ['checkout', '-q', '-b', 'other']);
    writeFileSync(join(repo.root, '.gitignore'), 'other\n');
    sh(repo.root, ['commit', '-qam', 'other']);
    sh(repo.root, ['checkout', '-q', 'main']);
    writeFileSync(join(repo.root, '.gitignore'), 'main\n');
    sh(repo.root, ['commit', '-qm', 'main', '--', '.gitignore']);
    assert.throws(() => sh(repo.root, ['merge', '-q', 'other']));
    refused(repo, ['--iteration', '1', '--force'], /a merge is in progress/);
    sh(repo.root, ['merge', '--abort']);
    assert.throws(() => sh(repo.root, ['rebase', '-q', 'other']));
    refused(repo, ['--iteration', '1', '--force'], /a rebase is in progress/);
    sh(repo.root, ['rebase', '--abort']);
    assert.notEqual(base, '');
  });

  it('a detached HEAD restores like a branch', () => {
    const repo = makeRepo();
    sh(repo.root, ['checkout', '-q', '--detach']);
    repo.write('a.txt', 'detached\n');
    assert.equal(checkpoint(repo).code, 0);
    repo.write('a.txt', 'later\n');
    const r = repo.cli('checkpoint', 'restore', '--iteration', '1');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(read(repo, 'a.txt'), 'detached\n');
  });

  it('a symlink pointing outside is restored as a link and never followed', () => {
    const repo = makeRepo();
    const outsideDir = tempRoot('loop-ledger-outside-');
    const first = join(outsideDir, 'first.txt');
    const second = join(outsideDir, 'second.txt');
    writeFileSync(first, 'first\n');
    writeFileSync(second, 'second\n');
    symlinkSync(first, join(repo.root, 'link'));
    assert.equal(checkpoint(repo).code, 0);
    unlinkSync(join(repo.root, 'link'));
    symlinkSync(second, join(repo.root, 'link'));
    symlinkSync(second, join(repo.root, 'added-link'));
    assert.equal(checkpoint(repo).code, 0);
    const r = repo.cli('checkpoint', 'restore', '--iteration', '1');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readlinkSync(join(repo.root, 'link')), first);
    assert.equal(existsSync(join(repo.root, 'added-link')), false);
    assert.equal(readFileSync(first, 'utf8'), 'first\n');
    assert.equal(readFileSync(second, 'utf8'), 'second\n');
  });

  it('a .loop (or .loop/ledgers) that links out of the root: restore refused (exit 2) with the workspace untouched', () => {
    for (const linked of ['.loop', join('.loop', 'ledgers')]) {
      const repo = twoIterations();
      const outside = join(tempRoot('loop-ledger-outside-'), 'moved');
      renameSync(join(repo.root, linked), outside);
      symlinkSync(outside, join(repo.root, linked));
      const before = readdirSync(outside).sort();
      const r = assertGitUntouched(repo.root, () => repo.cli('checkpoint', 'restore', '--iteration', '1'));
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /outside the workspace root's real path/);
      assertNoStack(r.stderr);
      // Not a file of the workspace written, no lock or ref left (a restore used to write the files first).
      assert.equal(read(repo, 'a.txt'), 'three\n');
      assert.equal(read(repo, 'added.txt'), 'added\n');
      assert.equal(existsSync(join(repo.root, 'new.txt')), false);
      assert.deepEqual(readdirSync(outside).sort(), before);
      assert.equal(
        sh(repo.root, ['for-each-ref', '--format=%(refname)', 'refs/loop-ledger']).split('\n').filter(Boolean)
          .length,
        2,
      );
    }
  });

  it('file names beginning with -, with spaces and newlines are restored and removed', () => {
    const repo = makeRepo();
    const names = ['-rf', 'a b.txt', 'x\ny.txt'];
    for (const n of names) repo.write(n, 'v1\n');
    assert.equal(checkpoint(repo).code, 0);
    for (const n of names) repo.write(n, 'v2\n');
    repo.write('--later', 'later\n');
    assert.equal(checkpoint(repo).code, 0);
    const r = repo.cli('checkpoint', 'restore', '--iteration', '1', '--json');
    assert.equal(r.code, 0, r.stderr);
    for (const n of names) assert.equal(read(repo, n), 'v1\n');
    assert.equal(existsSync(join(repo.root, '--later')), false);
  });

  it('a shadow repository restores a workspace that is not in git', () => {
    const repo = twoIterations({ git: false });
    const r = repo.cli('checkpoint', 'restore', '--iteration', '1');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(read(repo, 'a.txt'), 'two\n');
    assert.equal(existsSync(join(repo.root, 'added.txt')), false);
    // No .gitignore here: the log was added since iteration 1 like any file.
    assert.equal(existsSync(join(repo.root, 'ignored.log')), false);
    assert.equal(existsSync(join(repo.root, '.loop', 'ledgers')), true);
  });

  it('diff prints a unified diff between two iterations, and between one and the workspace', () => {
    const repo = twoIterations();
    const r = assertGitUntouched(repo.root, () => repo.cli('checkpoint', 'diff', '--from', '1', '--to', '2'));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^diff --git a\/a\.txt b\/a\.txt\n/m);
    assert.match(r.stdout, /^-two\n\+three$/m);
    assert.match(r.stdout, /^diff --git a\/new\.txt b\/new\.txt\ndeleted file mode/m);
    repo.write('a.txt', 'four\n');
    const w = assertGitUntouched(repo.root, () => repo.cli('checkpoint', 'diff', '--iteration', '2'));
    assert.equal(w.code, 0, w.stderr);
    assert.match(w.stdout, /^-three\n\+four$/m);
    const bad = repo.cli('checkpoint', 'diff', '--iteration', '1', '--to', '2');
    assert.equal(bad.code, 2);
  });

  it('list shows every checkpoint; prune --keep drops the older refs; a pruned one cannot be restored', () => {
    const repo = twoIterations();
    assert.equal(checkpoint(repo).code, 0);
    const p = assertGitUntouched(repo.root, () => repo.cli('checkpoint', 'prune', '--keep', '1', '--json'));
    assert.equal(p.code, 0, p.stderr);
    assert.deepEqual(p.json.kept, ['refs/loop-ledger/s1/1-3']);
    assert.deepEqual(p.json.pruned.sort(), ['refs/loop-ledger/s1/1-1', 'refs/loop-ledger/s1/1-2']);
    const l = repo.cli('checkpoint', 'list', '--json');
    assert.deepEqual(
      l.json.checkpoints.map((c: { n: number; present: boolean }) => [c.n, c.present]),
      [
        [1, false],
        [2, false],
        [3, true],
      ],
    );
    refused(repo, ['--iteration', '1'], /is gone \(pruned\)/);
  });

  it('a ref or commit in the ledger that is not ours is refused before git sees it', () => {
    const repo = twoIterations();
    const path = ledgerPath(repo.root, repo.session);
    const text = readFileSync(path, 'utf8');
    for (const [from, to] of [
      ['"ref":"refs/loop-ledger/s1/1-1"', '"ref":"refs/heads/main"'],
      [/"commit":"[0-9a-f]{40}"/, '"commit":"--output=/tmp/x"'],
    ] as const) {
      const tampered = text.replace(from, to);
      assert.notEqual(tampered, text);
      writeFileSync(path, tampered);
      const before = gitState(repo.root);
      const r = repo.cli('checkpoint', 'restore', '--iteration', '1');
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /checkpoint(\.ref is not|\.commit is not)/);
      assertNoStack(r.stderr);
      assert.equal(gitState(repo.root), before);
      assert.equal(read(repo, 'a.txt'), 'three\n');
    }
    writeFileSync(path, text);
  });
});
