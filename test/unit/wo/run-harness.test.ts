// `wo run` with its default builder: each attempt is a real `loop-ledger run` harness (a child
// process) whose allowed globs are the work order's "Files to touch" and whose checks are its
// runnable acceptance; the receipt is the per-work-order review. Fake harness agents
// (test/fixtures/wo/harness-agent.mjs) are real processes steered by a plan.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, makeTask, statusOf, type WoSpec } from './fixture';
import { agent, calls, readJson, woRun } from './run-helpers';

const AGENTS = join(FIXTURES, 'agents.toml');
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** A work order whose acceptance passes once its declared file says "done". */
const wo = (n: number, extra: Partial<WoSpec> = {}): WoSpec => {
  const file = `src/wo-${String(n).padStart(2, '0')}.txt`;
  return { n, files: [file], acceptance: [`grep -qx done ${file}`], ...extra };
};

describe('wo run: the default builder (loop-ledger run per attempt)', function () {
  this.timeout(180_000);

  it('builds each work order through the harness: its receipt is the review, only declared files are committed', () => {
    const t = makeTask([wo(1), wo(2, { blockedBy: [1] })], { git: true });
    const r = woRun(t, { builderConfig: AGENTS });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      r.json.work_orders.map((w: { wo_id: string; status: string }) => [w.wo_id, w.status]),
      [
        ['wo-01', 'done'],
        ['wo-02', 'done'],
      ],
    );
    const build = readJson(join(t.dir, 'wo-01.build.json'));
    assert.equal(build.builder, 'loop-ledger run');
    assert.equal(build.final_verdict, 'PASS');
    assert.equal(build.stop_reason, 'CODE_REVIEWER_PASS');
    assert.equal(build.attempt, 1);
    assert.ok(existsSync(join(t.worktree, build.run_dir, 'final-receipt.json')), build.run_dir);
    const review = readJson(join(t.dir, 'wo-01._review.json'));
    assert.equal(review.gate_specific.overall_verdict, 'pass');
    assert.equal(review.reviewer, 'loop-ledger run receipt');
    // The harness's own run folder and ledgers stay out of the build commits.
    assert.deepEqual(git(t.worktree, 'show', '--name-only', '--format=', 'HEAD~1').split('\n'), [
      'src/wo-01.txt',
    ]);
    assert.deepEqual(git(t.worktree, 'show', '--name-only', '--format=', 'HEAD').split('\n'), [
      'src/wo-02.txt',
    ]);
    assert.match(r.stderr, /wo-run build wo=wo-01 attempt=1 builder=loop-ledger-run exit=0 verdict=PASS/);
    // The harness ran the acceptance as its check: the coder ran once per work order.
    assert.deepEqual(calls(t), ['wo-01/a1/coder', 'wo-01/a1/critic', 'wo-02/a1/coder', 'wo-02/a1/critic']);
  });

  it('a build that touches a file outside "Files to touch" is not CLEAN: HALT undeclared_file_drift', () => {
    const t = makeTask([wo(1), wo(2)], { git: true });
    const r = woRun(t, { builderConfig: AGENTS, plan: { 'wo-01': { coder: ['outside'] } } });
    assert.equal(r.code, 1, r.stderr);
    const first = r.json.work_orders[0];
    assert.equal(first.terminal, true);
    assert.equal(first.halt_reason, 'undeclared_file_drift');
    assert.notEqual(first.status, 'done');
    const marker = readJson(join(t.dir, 'wo-01.HALT'));
    assert.equal(marker.reason, 'undeclared_file_drift');
    assert.deepEqual(marker.paths, ['outside.txt']);
    assert.equal(readJson(join(t.dir, 'wo-01.build.json')).stop_reason, 'DISALLOWED_FILE_CHANGE');
    // An unrelated work order still builds.
    assert.equal(r.json.work_orders[1].status, 'done');
  });

  it('a coder that commits an undeclared file itself (invisible to the harness) is still caught', () => {
    const t = makeTask([wo(1)], { git: true });
    const r = woRun(t, { builderConfig: AGENTS, plan: { 'wo-01': { coder: ['commit-outside'] } } });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.work_orders[0].halt_reason, 'undeclared_file_drift');
    assert.deepEqual(readJson(join(t.dir, 'wo-01.HALT')).paths, ['outside.txt']);
  });

  it('a receipt other than PASS is a review fail: reset, needs_rework, and the next attempt is done', () => {
    const t = makeTask([wo(1)], { git: true });
    const base = git(t.worktree, 'rev-parse', 'HEAD');
    const r = woRun(t, { builderConfig: AGENTS, plan: { 'wo-01': { coder: ['wrong', 'change'] } } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.work_orders[0].status, 'done');
    assert.equal(r.json.work_orders[0].attempts, 2);
    // Attempt 1: the harness repaired up to its own max (3 coder runs), then NEEDS_CHANGES.
    assert.deepEqual(calls(t), [
      'wo-01/a1/coder',
      'wo-01/a1/coder',
      'wo-01/a1/coder',
      'wo-01/a1/critic',
      'wo-01/a2/coder',
      'wo-01/a2/critic',
    ]);
    // The failed attempt was reset away: only attempt 2's commit sits on the base.
    assert.equal(git(t.worktree, 'rev-parse', 'HEAD~1'), base);
    assert.equal(git(t.worktree, 'log', '-1', '--format=%s'), 'wo-01: build attempt 2');
  });

  it('a work order without runnable acceptance is refused before an attempt is spent', () => {
    const t = makeTask([wo(1, { acceptance: [] })], { git: true });
    const r = woRun(t, { builderConfig: AGENTS });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.work_orders[0].halt_reason, 'acceptance_not_runnable');
    assert.equal(r.json.work_orders[0].attempts, 0);
    assert.equal(statusOf(t.file(1)), 'ready');
    assert.deepEqual(calls(t), []);
  });

  it('a worktree left dirty stops the run before any dispatch: no attempt spent, no HALT, the paths named', () => {
    const t = makeTask([wo(1)], { git: true });
    writeFileSync(join(t.worktree, 'stray.txt'), 'left behind\n');
    const r = woRun(t, { builderConfig: AGENTS, extra: ['--cap', '3'] });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.outcome, 'stopped');
    assert.equal(r.json.stop_reason, 'worktree_dirty');
    assert.match(r.stderr, /wo-run stop reason=worktree_dirty paths=stray.txt\n/);
    assert.equal(r.json.work_orders[0].terminal, false);
    assert.equal(r.json.work_orders[0].attempts, 0);
    assert.equal(existsSync(join(t.dir, 'wo-01.HALT')), false);
    assert.equal(statusOf(t.file(1)), 'ready');
    assert.equal(git(t.worktree, 'log', '--format=%s').split('\n').length, 1, 'nothing committed');
    assert.equal(git(t.worktree, 'status', '--porcelain'), '?? stray.txt');
    assert.deepEqual(calls(t), []);
  });

  it('--reviewer overrides the receipt as the review', () => {
    const t = makeTask([wo(1)], { git: true });
    const r = woRun(t, {
      builderConfig: AGENTS,
      reviewer: agent('reviewer'),
      plan: { 'wo-01': { review: ['fail', 'pass'] } },
      extra: ['--cap', '2'],
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.work_orders[0].attempts, 2);
    assert.deepEqual(calls(t), [
      'wo-01/a1/coder',
      'wo-01/a1/review',
      'wo-01/a1/critic',
      'wo-01/a2/coder',
      'wo-01/a2/review',
      'wo-01/a2/critic',
      'task/a1/review', // the exit's task review
    ]);
  });

  it('takes <task>/agents.toml when no builder is named', () => {
    const t = makeTask([wo(1)], { git: true });
    copyFileSync(AGENTS, join(t.task, 'agents.toml'));
    copyFileSync(join(FIXTURES, 'harness-agent.mjs'), join(t.task, 'harness-agent.mjs'));
    copyFileSync(join(FIXTURES, 'plan.mjs'), join(t.task, 'plan.mjs'));
    const r = woRun(t, { builderConfig: null });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.work_orders[0].status, 'done');
  });

  describe('refusals (exit 2, one line naming the flag or file, nothing written)', () => {
    const refused = (args: Parameters<typeof woRun>[1], pattern: RegExp) => {
      const t = makeTask([wo(1)], { git: true });
      const r = woRun(t, args);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, pattern);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
      assert.equal(existsSync(join(t.dir, 'wo-01.run.json')), false);
    };
    it('no builder at all', () => refused({ builderConfig: null }, /no builder: pass --builder-config/));
    it('--builder with --builder-config', () =>
      refused(
        { builderConfig: AGENTS, extra: ['--builder', 'true'] },
        /--builder and --builder-config exclude each other/,
      ));
    it('--builder without --reviewer', () =>
      refused(
        { builderConfig: null, extra: ['--builder', 'true'] },
        /--reviewer CMD is required with --builder/,
      ));
    it('an unreadable or invalid agent config', () => {
      refused(
        { builderConfig: '/nonexistent/agents.toml' },
        /--builder-config \/nonexistent\/agents.toml: .*no such file/,
      );
      const bad = join(makeTask([]).root, 'bad.toml');
      writeFileSync(bad, '[coder\n');
      refused({ builderConfig: bad }, /--builder-config .*bad.toml: .*invalid TOML/);
    });
  });
});
