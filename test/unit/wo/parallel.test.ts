// The parallel conductor's kernels: `wo parallel-batch` (greedy disjoint-file batches; batch
// T-cases), `wo merge-back` (local --no-ff merge; exit 3 on conflict with the tree left clean)
// and `wo review-snapshot`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathsOverlap } from '../../../src/engine/workorders/batch';
import { runCli, tempRoot } from '../helpers/cli';
import { gitHead, makeTask } from './fixture';

const batch = (dir: string, ...extra: string[]) => runCli(['wo', 'parallel-batch', dir, ...extra]);

describe('wo parallel-batch', () => {
  it('T1 disjoint ready work orders batch together, in version order', () => {
    const t = makeTask([{ n: 10 }, { n: 2 }, { n: 1 }]);
    const r = batch(t.dir);
    assert.equal(r.code, 0);
    assert.deepEqual(
      r.json.batch.map((b: { wo_id: string }) => b.wo_id),
      ['wo-01', 'wo-02', 'wo-10'],
    );
    assert.deepEqual(r.json.batch[0].files, ['src/wo-01.txt']);
    assert.equal(r.stderr, 'wo-parallel-batch ready=3 batch=3 deferred=0 max=8\n');
  });

  it('T2 overlapping files defer with conflicts_with; T3 an ancestor directory overlaps', () => {
    const t = makeTask([
      { n: 1, files: ['src/a.ts'] },
      { n: 2, files: ['./src//a.ts'] },
      { n: 3, files: ['src'] },
      { n: 4, files: ['src-other/x'] },
    ]);
    const r = batch(t.dir);
    assert.deepEqual(
      r.json.batch.map((b: { wo_id: string }) => b.wo_id),
      ['wo-01', 'wo-04'],
    );
    assert.deepEqual(r.json.deferred, [
      { wo_id: 'wo-02', conflicts_with: ['wo-01'], reason: 'file_overlap' },
      { wo_id: 'wo-03', conflicts_with: ['wo-01'], reason: 'file_overlap' },
    ]);
  });

  it('T4 no declared files: solo only, always warned; T5 --max fills then batch_full', () => {
    const t = makeTask([{ n: 1, files: [] }, { n: 2 }]);
    let r = batch(t.dir);
    assert.deepEqual(r.json.batch, [{ wo_id: 'wo-01', files: [] }]);
    assert.deepEqual(r.json.deferred, [
      { wo_id: 'wo-02', conflicts_with: ['wo-01'], reason: 'file_overlap' },
    ]);
    assert.equal(r.json.warnings.length, 1);
    const u = makeTask([{ n: 1 }, { n: 2 }, { n: 3 }]);
    r = batch(u.dir, '--max', '2');
    assert.deepEqual(r.json.deferred, [{ wo_id: 'wo-03', conflicts_with: [], reason: 'batch_full' }]);
    assert.equal(r.json.max, 2);
  });

  it('T6 eligibility: terminal never; blocked only with every dep done; blocked without deps never', () => {
    const t = makeTask([
      { n: 1, status: 'done' },
      { n: 2, blockedBy: [1] },
      { n: 3, blockedBy: [4] },
      { n: 4 },
      { n: 5, status: 'blocked' },
      { n: 6 },
    ]);
    writeFileSync(join(t.dir, 'wo-06.HALT'), '{}');
    const r = batch(t.dir);
    assert.deepEqual(
      r.json.batch.map((b: { wo_id: string }) => b.wo_id),
      ['wo-02', 'wo-04'],
    );
    assert.equal(r.json.ready_total, 2);
  });

  it('overlap rules: globs compare by literal prefix; a leading glob overlaps everything', () => {
    assert.equal(pathsOverlap('src/*.ts', 'src/a.ts'), true);
    assert.equal(pathsOverlap('**/x', 'docs/y'), true);
    assert.equal(pathsOverlap('src/a/', 'src/a'), true);
    assert.equal(pathsOverlap('src/a', 'src/b'), false);
    assert.equal(pathsOverlap('src', 'src-other'), false);
    assert.equal(pathsOverlap('lib/{a,b}.js', 'lib/c.js'), true);
  });

  it('usage: a missing folder exits 2', () => {
    assert.equal(batch('/nonexistent').code, 2);
  });
});

describe('wo merge-back', () => {
  function repo(): string {
    const dir = tempRoot('wo-mb-');
    const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 't@e');
    git('config', 'user.name', 't');
    writeFileSync(join(dir, 'a.txt'), 'base\n');
    git('add', '-A');
    git('commit', '-qm', 'base');
    return dir;
  }
  const git = (dir: string, ...a: string[]) => execFileSync('git', a, { cwd: dir, encoding: 'utf8' });
  function branch(dir: string, name: string, file: string, text: string): void {
    git(dir, 'checkout', '-q', '-b', name);
    writeFileSync(join(dir, file), text);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', name);
    git(dir, 'checkout', '-q', 'main');
  }

  it('T1 a clean merge is --no-ff: merged true, sha = the new merge commit', () => {
    const dir = repo();
    branch(dir, 'wo-01-x', 'b.txt', 'b\n');
    const r = runCli(['wo', 'merge-back', dir, 'wo-01-x']);
    assert.equal(r.code, 0);
    assert.deepEqual(r.json, { ok: true, merged: true, branch: 'wo-01-x', sha: gitHead(dir), reason: null });
    assert.equal(git(dir, 'log', '-1', '--format=%P').trim().split(' ').length, 2, 'a merge commit');
    assert.equal(r.stderr, 'wo-merge-back branch=wo-01-x merged=true reason=null\n');
  });

  it('T2 already contained: merged true, HEAD unchanged', () => {
    const dir = repo();
    branch(dir, 'wo-01-x', 'b.txt', 'b\n');
    runCli(['wo', 'merge-back', dir, 'wo-01-x']);
    const head = gitHead(dir);
    const r = runCli(['wo', 'merge-back', dir, 'wo-01-x']);
    assert.equal(r.code, 0);
    assert.equal(r.json.sha, head);
  });

  it('T3 a conflict exits 3, lists the files, and leaves the tree clean at the pre-merge HEAD', () => {
    const dir = repo();
    branch(dir, 'wo-02-y', 'a.txt', 'theirs\n');
    writeFileSync(join(dir, 'a.txt'), 'ours\n');
    git(dir, 'commit', '-qam', 'ours');
    const head = gitHead(dir);
    const r = runCli(['wo', 'merge-back', dir, 'wo-02-y']);
    assert.equal(r.code, 3);
    assert.deepEqual(r.json, {
      ok: true,
      merged: false,
      branch: 'wo-02-y',
      sha: head,
      reason: 'merge_conflict',
      conflicts: ['a.txt'],
    });
    assert.equal(gitHead(dir), head);
    assert.equal(git(dir, 'status', '--porcelain'), '');
    assert.equal(readFileSync(join(dir, 'a.txt'), 'utf8'), 'ours\n');
  });

  it('T4–T7 preconditions exit 2: usage, not a work tree, unknown branch, dirty tree', () => {
    const dir = repo();
    assert.deepEqual(runCli(['wo', 'merge-back', dir]).json, { ok: false, error: 'usage' });
    assert.equal(runCli(['wo', 'merge-back', tempRoot('wo-nogit-'), 'b']).json.error, 'not_a_work_tree');
    assert.equal(runCli(['wo', 'merge-back', dir, 'nope']).json.error, 'branch_not_found');
    branch(dir, 'wo-03-z', 'c.txt', 'c\n');
    writeFileSync(join(dir, 'dirty.txt'), 'x');
    const r = runCli(['wo', 'merge-back', dir, 'wo-03-z']);
    assert.equal(r.code, 2);
    assert.equal(r.json.error, 'dirty_tree');
  });
});

describe('wo review-snapshot', () => {
  it('copies the task review to the per-WO review_ref and pins envelope paths to a snapshot', () => {
    const t = makeTask([{ n: 1 }]);
    mkdirSync(join(t.task, 'validations', 'latest'), { recursive: true });
    writeFileSync(join(t.task, 'validations', 'latest', 'lint.json'), '{}');
    writeFileSync(
      join(t.task, '_review.json'),
      JSON.stringify({
        gate_specific: {
          overall_verdict: 'pass',
          gates_run: [{ envelope_path: 'x/validations/latest/lint.json' }],
        },
      }),
    );
    const r = runCli(['wo', 'review-snapshot', t.task, 'wo-01']);
    assert.equal(r.code, 0);
    assert.equal(r.json.gates, 1);
    const ref = JSON.parse(readFileSync(join(t.dir, 'wo-01._review.json'), 'utf8'));
    assert.equal(ref.gate_specific.gates_run[0].envelope_path, 'x/validations/wo-01/lint.json');
    assert.equal(runCli(['wo', 'review-snapshot', t.task, '../x']).code, 2);
    writeFileSync(join(t.task, '_review.json'), 'nope');
    assert.equal(runCli(['wo', 'review-snapshot', t.task, 'wo-01']).json.reason, 'review_json_absent');
  });
});
