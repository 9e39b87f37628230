// `wo run --parallel --max N` (the parallel variant of the original work-order loop) over real git
// repositories: co-batching of disjoint work orders at one ROUND_BASE, each in its own worktree and
// branch, merge-back in batch order, a deferred overlap, a retry, a merge conflict HALT with the
// integration tree left clean, no stray branches or worktrees, the kill switch per round, and the
// --max refusals.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitHead, makeTask, statusOf } from './fixture';
import { calls, readJson, woRun } from './run-helpers';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** Only `main` and only the integration worktree are left. */
function assertNoStrays(worktree: string, task: string): void {
  assert.equal(git(worktree, 'branch', '--format=%(refname:short)'), 'main');
  assert.equal(
    git(worktree, 'worktree', 'list', '--porcelain')
      .split('\n')
      .filter((l) => l.startsWith('worktree ')).length,
    1,
  );
  const dir = join(task, '.wo-worktrees');
  assert.deepEqual(existsSync(dir) ? readdirSync(dir) : [], []);
}

describe('wo run --parallel (rounds)', function () {
  this.timeout(120_000);

  it('two disjoint work orders are built in one round from one base and merged back in order', () => {
    const t = makeTask([{ n: 1 }, { n: 2 }], { git: true });
    const base = gitHead(t.worktree);
    const r = woRun(t, { extra: ['--parallel', '--max', '2'] });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      r.json.work_orders.map((w: { status: string }) => w.status),
      ['done', 'done'],
    );
    assert.match(r.stderr, /^wo-parallel-batch ready=2 batch=2 deferred=0 max=2$/m);
    // Both builds ran before either review: one round, concurrent builds.
    assert.deepEqual(calls(t).slice(0, 2).sort(), ['wo-01/a1/build', 'wo-02/a1/build']);
    assert.equal(readJson(join(t.dir, 'wo-01.run.json')).checkpoint_before, base);
    assert.equal(readJson(join(t.dir, 'wo-02.run.json')).checkpoint_before, base);
    assert.deepEqual(git(t.worktree, 'log', '--format=%s', '--first-parent').split('\n'), [
      "Merge branch 'refs/heads/wo-02-part-2'",
      "Merge branch 'refs/heads/wo-01-part-1'",
      'base',
    ]);
    // checkpoint_after is the merge commit on the integration branch.
    assert.equal(readJson(join(t.dir, 'wo-02.run.json')).checkpoint_after, gitHead(t.worktree));
    assert.ok(existsSync(join(t.worktree, 'src/wo-01.txt')) && existsSync(join(t.worktree, 'src/wo-02.txt')));
    assert.equal(git(t.worktree, 'status', '--porcelain'), '');
    assertNoStrays(t.worktree, t.task);
    assert.equal(r.json.gates.merge_gate.merge_ok, true);
  });

  it('overlapping "Files to touch" are deferred to the next round, which starts from the merged base', () => {
    const t = makeTask(
      [
        { n: 1, files: ['src/shared.txt'] },
        { n: 2, files: ['src/shared.txt'] },
      ],
      { git: true },
    );
    const base = gitHead(t.worktree);
    const r = woRun(t, { extra: ['--parallel', '--max', '4'] });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^wo-parallel-batch ready=2 batch=1 deferred=1 max=4$/m);
    assert.equal(readJson(join(t.dir, 'wo-01.run.json')).checkpoint_before, base);
    assert.notEqual(readJson(join(t.dir, 'wo-02.run.json')).checkpoint_before, base);
    assertNoStrays(t.worktree, t.task);
  });

  it('a review failure is reworked in the next round (attempt 2, done); its branch is gone', () => {
    const t = makeTask([{ n: 1 }, { n: 2 }], { git: true });
    const r = woRun(t, { plan: { 'wo-01': { review: ['fail', 'pass'] } }, extra: ['--parallel'] });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      r.json.work_orders.map((w: { status: string; attempts: number }) => [w.status, w.attempts]),
      [
        ['done', 2],
        ['done', 1],
      ],
    );
    assertNoStrays(t.worktree, t.task);
  });

  it('a merge conflict HALTs merge_conflict and leaves the integration tree clean at its pre-merge head', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    // The builder writes its file, while someone commits a different one at the same path on the
    // integration branch during the round.
    const w = t.worktree;
    const builder = [
      'mkdir -p "$WO_WORKTREE/src" && echo mine > "$WO_WORKTREE/src/wo-01.txt"',
      `mkdir -p '${w}/src' && echo theirs > '${w}/src/wo-01.txt'`,
      `git -C '${w}' add -A && git -C '${w}' -c user.name=h -c user.email=h@x commit -qm human`,
    ].join(' && ');
    const r = woRun(t, { builder, extra: ['--parallel'] });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.work_orders[0].halt_reason, 'merge_conflict');
    assert.equal(readJson(join(t.dir, 'wo-01.HALT')).reason, 'merge_conflict');
    assert.equal(git(w, 'log', '-1', '--format=%s'), 'human');
    assert.equal(git(w, 'status', '--porcelain'), '');
    assert.notEqual(statusOf(t.file(1)), 'done');
    assertNoStrays(w, t.task);
  });

  it('a crash mid-round is recovered by re-running: worktrees and branches pruned, unmerged builds requeued', () => {
    const t = makeTask([{ n: 1 }, { n: 2 }], { git: true });
    const plan = { 'wo-01': { build: ['crash', 'change'] } };
    assert.equal(woRun(t, { plan, extra: ['--parallel'] }).code, null, 'the runner was killed');
    const r = woRun(t, { plan, extra: ['--parallel'] });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      r.json.work_orders.map((w: { status: string }) => w.status),
      ['done', 'done'],
    );
    assert.equal(r.json.work_orders[0].attempts, 2, 'the crashed dispatch counts');
    assertNoStrays(t.worktree, t.task);
  });

  it('the kill switch stops before a round: nothing dispatched', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    writeFileSync(join(t.task, '.kill'), '');
    const r = woRun(t, { extra: ['--parallel'] });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.stop_reason, 'kill_switch');
    assert.deepEqual(calls(t), []);
    assert.equal(existsSync(join(t.dir, 'wo-01.run.json')), false);
  });

  it('--max refusals: without --parallel, zero, not a number', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    for (const [extra, pattern] of [
      [['--max', '2'], /--max needs --parallel/],
      [['--parallel', '--max', '0'], /--max: "0" is not a positive integer/],
      [['--parallel', '--max', 'x'], /--max: "x" is not a positive integer/],
    ] as const) {
      const r = woRun(t, { extra: [...extra] });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, pattern);
    }
  });
});
