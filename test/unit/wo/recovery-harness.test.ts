// Crash recovery under the default builder (a `loop-ledger run` harness per attempt): the whole
// build is SIGKILLed after the coder wrote its file (a fake coder kills the runner and the
// harness), then `wo run` is simply run again. The crashed work order is rebuilt, no other one is
// halted, and recovery removes only what the crashed build left inside its own "Files to touch".
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, gitHead, makeTask, statusOf, type Task, type WoSpec } from './fixture';
import { calls, readJson, woRun } from './run-helpers';

const AGENTS = join(FIXTURES, 'agents.toml');
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

const wo = (n: number, extra: Partial<WoSpec> = {}): WoSpec => {
  const file = `src/wo-${String(n).padStart(2, '0')}.txt`;
  return { n, files: [file], acceptance: [`grep -qx done ${file}`], ...extra };
};

/** Three work orders; wo-01's scope also covers `build/**`, which git ignores. */
function threeOrders(): { t: Task; base: string } {
  const t = makeTask([wo(1, { files: ['src/wo-01.txt', 'build/**'] }), wo(2), wo(3)], { git: true });
  writeFileSync(join(t.worktree, '.gitignore'), 'build/\n');
  git(t.worktree, 'add', '.gitignore');
  git(t.worktree, 'commit', '-qm', 'ignore build');
  mkdirSync(join(t.worktree, 'build'));
  writeFileSync(join(t.worktree, 'build', 'cache.bin'), 'ignored, in scope\n');
  return { t, base: gitHead(t.worktree) };
}

const halts = (t: Task): string[] => readdirSync(t.dir).filter((n) => n.endsWith('.HALT'));
const attempts = (t: Task, id: string): unknown =>
  existsSync(join(t.dir, `${id}.run.json`)) ? readJson(join(t.dir, `${id}.run.json`)).attempts : 0;

describe('wo run: a crash mid-build under the default builder', function () {
  this.timeout(180_000);

  it('is rebuilt on restart: its in-scope leftover removed, ignored files kept, no other work order halted', () => {
    const { t, base } = threeOrders();
    const plan = { 'wo-01': { coder: ['crash-after-write', 'change'] } };
    const first = woRun(t, { builderConfig: AGENTS, plan });
    assert.equal(first.code, null, 'the runner was killed');
    assert.equal(statusOf(t.file(1)), 'in_progress');
    assert.equal(readFileSync(join(t.worktree, 'src/wo-01.txt'), 'utf8'), 'done\n', 'the leftover');

    const second = woRun(t, { builderConfig: AGENTS, plan });
    assert.equal(second.code, 0, second.stderr);
    assert.match(
      second.stderr,
      new RegExp(`wo-run recover wo=wo-01 action=reset cp=${base} removed=src/wo-01.txt\\n`),
    );
    assert.deepEqual(
      second.json.work_orders.map((w: { wo_id: string; status: string }) => [w.wo_id, w.status]),
      [
        ['wo-01', 'done'],
        ['wo-02', 'done'],
        ['wo-03', 'done'],
      ],
    );
    assert.deepEqual(halts(t), []);
    assert.equal(attempts(t, 'wo-01'), 2);
    assert.equal(attempts(t, 'wo-02'), 1);
    assert.equal(attempts(t, 'wo-03'), 1);
    assert.equal(readFileSync(join(t.worktree, 'build', 'cache.bin'), 'utf8'), 'ignored, in scope\n');
    assert.deepEqual(git(t.worktree, 'log', '--format=%s').split('\n'), [
      'wo-03: build attempt 1',
      'wo-02: build attempt 1',
      'wo-01: build attempt 2',
      'ignore build',
      'base',
    ]);
    assert.equal(calls(t).filter((c) => c === 'wo-01/a2/coder').length, 1);
  });

  it('a build left running by a killed runner is stopped before the rebuild: it never writes again', async () => {
    const { t } = threeOrders();
    const plan = { 'wo-01': { coder: ['orphan-rewrite', 'change'] } };
    const first = woRun(t, { builderConfig: AGENTS, plan });
    assert.equal(first.code, null, 'the runner was killed');
    const record = readJson(join(t.dir, 'wo-01.builder.json'));
    assert.equal(record.attempt, 1);
    const second = woRun(t, { builderConfig: AGENTS, plan });
    assert.equal(second.code, 0, second.stderr);
    assert.match(
      second.stderr,
      new RegExp(`wo-run recover wo=wo-01 stopped_orphan_build pgid=${record.pgid}\\n`),
    );
    assert.deepEqual(halts(t), []);
    assert.equal(attempts(t, 'wo-01'), 2);
    assert.equal(existsSync(join(t.dir, 'wo-01.builder.json')), false);
    // Past the moment the orphan would have written again: it never did.
    await new Promise((resolve) => setTimeout(resolve, 7000));
    assert.equal(existsSync(join(t.root, 'orphan-wrote')), false);
    // Nothing but Loop Ledger's own run folders is left in the tree.
    assert.deepEqual(
      git(t.worktree, 'status', '--porcelain')
        .split('\n')
        .filter((l) => l !== '' && l !== '?? .loop/'),
      [],
    );
  });

  it('an out-of-scope leftover is never removed: the run stops worktree_dirty, nothing halted, no attempt spent', () => {
    const { t } = threeOrders();
    const plan = { 'wo-01': { coder: ['crash-after-write-outside', 'change'] } };
    assert.equal(woRun(t, { builderConfig: AGENTS, plan }).code, null);

    const second = woRun(t, { builderConfig: AGENTS, plan });
    assert.equal(second.code, 1, second.stderr);
    assert.equal(second.json.outcome, 'stopped');
    assert.equal(second.json.stop_reason, 'worktree_dirty');
    assert.match(second.stderr, /wo-run recover wo=wo-01 action=reset cp=\S+ removed=src\/wo-01.txt\n/);
    assert.match(second.stderr, /wo-run stop reason=worktree_dirty paths=outside.txt\n/);
    assert.deepEqual(halts(t), []);
    assert.equal(readFileSync(join(t.worktree, 'outside.txt'), 'utf8'), 'not declared\n');
    assert.equal(existsSync(join(t.worktree, 'src/wo-01.txt')), false);
    assert.equal(readFileSync(join(t.worktree, 'build', 'cache.bin'), 'utf8'), 'ignored, in scope\n');
    assert.equal(statusOf(t.file(1)), 'needs_rework');
    assert.equal(attempts(t, 'wo-01'), 1);
    assert.equal(attempts(t, 'wo-02'), 0);
    assert.equal(attempts(t, 'wo-03'), 0);

    // Once a person deals with the stray file, the queue goes on from where it stopped.
    rmSync(join(t.worktree, 'outside.txt'));
    const third = woRun(t, { builderConfig: AGENTS, plan });
    assert.equal(third.code, 0, third.stderr);
    assert.deepEqual(halts(t), []);
    assert.equal(attempts(t, 'wo-01'), 2);
    assert.ok(third.json.work_orders.every((w: { status: string }) => w.status === 'done'));
  });
});
