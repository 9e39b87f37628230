// Crash recovery of `wo run` (the reconcile table decides how each work order resumes): the runner
// is SIGKILLed by a fake agent at each step, then `wo run` is simply run again. A completed phase
// never repeats, an attempt is counted once per dispatch, and a property test checks that no
// sequence of crashes and re-runs exceeds the cap or builds a TERMINAL work order.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { readLedger } from '../helpers/cli';
import { gitHead, makeTask, statusOf } from './fixture';
import { calls, readJson, woRun, woRunAsync } from './run-helpers';

const gitLog = (cwd: string): string[] =>
  execFileSync('git', ['log', '--format=%s'], { cwd, encoding: 'utf8' }).trim().split('\n');

describe('wo run: crash recovery from files alone', function () {
  this.timeout(180_000);

  it('a crash before the flip (ready + sidecar, no checkpoint_after) re-dispatches and counts the attempt', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    writeFileSync(
      join(t.dir, 'wo-01.run.json'),
      JSON.stringify({
        wo: 'wo-01',
        attempts: 1,
        checkpoint_before: gitHead(t.worktree),
        halted: false,
        checkpoint_after: null,
      }),
    );
    const r = woRun(t);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readJson(join(t.dir, 'wo-01.run.json')).attempts, 2);
  });

  it('a crash mid-build (after the flip, before the collect) resets to the checkpoint, reworks, then builds again', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const base = gitHead(t.worktree);
    const plan = { 'wo-01': { build: ['crash-after-write', 'change'] } };
    const first = woRun(t, { plan });
    assert.equal(first.code, null, 'the runner was killed');
    assert.equal(statusOf(t.file(1)), 'in_progress');
    assert.equal(readJson(join(t.dir, 'wo-01.run.json')).checkpoint_after, null);
    assert.equal(existsSync(join(t.dir, '.wo-run.lock')), true, 'the dead runner left its lock');
    const second = woRun(t, { plan });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, new RegExp(`wo-run recover wo=wo-01 action=reset cp=${base}`));
    assert.equal(readJson(join(t.dir, 'wo-01.run.json')).attempts, 2);
    assert.deepEqual(gitLog(t.worktree), ['wo-01: build attempt 2', 'base']);
    const ledger = readLedger(t.root, 'wo-01');
    assert.equal(ledger.epochs[0].final_outcome, 'revise');
    assert.equal(ledger.final_outcome, 'complete');
  });

  it('a crash during review resumes at review: no rebuild, no second dispatch', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const plan = { 'wo-01': { review: ['crash'] } };
    assert.equal(woRun(t, { plan }).code, null);
    const row = JSON.parse(
      execFileSync(
        process.execPath,
        [join(__dirname, '../../../../dist/cli.js'), 'wo', 'reconcile-table', t.dir],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
      ),
    )[0];
    assert.equal(row.status, 'in_progress');
    assert.notEqual(row.checkpoint_after, null);
    assert.equal(row.has_review, false);
    const r = woRun(t, { plan });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /wo-run recover wo=wo-01 action=resume_review attempt=1/);
    assert.deepEqual(calls(t), [
      'wo-01/a1/build',
      'wo-01/a1/review',
      'wo-01/a1/review',
      'wo-01/a1/critic',
      'task/a1/review', // the exit's task review, once the queue is done
    ]);
    assert.equal(readJson(join(t.dir, 'wo-01.run.json')).attempts, 1);
    assert.deepEqual(readLedger(t.root, 'wo-01').completed_actions, [
      'wo-01/a1/build',
      'wo-01/a1/review',
      'wo-01/a1/critique',
    ]);
  });

  it('a crash during critique resumes at critique: the review is not repeated', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const plan = { 'wo-01': { critic: ['crash'] } };
    assert.equal(woRun(t, { plan }).code, null);
    const r = woRun(t, { plan });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /action=resume_critique/);
    assert.deepEqual(calls(t), [
      'wo-01/a1/build',
      'wo-01/a1/review',
      'wo-01/a1/critic',
      'wo-01/a1/critic',
      'task/a1/review',
    ]);
  });

  it('a crash after the critique re-derives the verdict from disk with no agent at all', () => {
    const t = makeTask([{ n: 1, status: 'in_progress' }], { git: true });
    const cp = gitHead(t.worktree);
    writeFileSync(join(t.worktree, 'x.txt'), 'x\n');
    execFileSync('git', ['add', '-A'], { cwd: t.worktree });
    execFileSync('git', ['commit', '-qm', 'wo-01: build attempt 1'], { cwd: t.worktree });
    writeFileSync(
      join(t.dir, 'wo-01.run.json'),
      JSON.stringify({
        wo: 'wo-01',
        attempts: 1,
        checkpoint_before: cp,
        halted: false,
        checkpoint_after: gitHead(t.worktree),
      }),
    );
    writeFileSync(
      join(t.dir, 'wo-01._review.json'),
      JSON.stringify({ gate_specific: { overall_verdict: 'pass' } }),
    );
    writeFileSync(join(t.dir, 'wo-01._critique.json'), JSON.stringify({ overall: 'pass', blocking: false }));
    const r = woRun(t);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /action=rederive_verdict/);
    // No work-order agent at all: the only one is the exit's task review.
    assert.deepEqual(calls(t), ['task/a1/review']);
    assert.equal(statusOf(t.file(1)), 'done');
  });

  it('in-place: a crash mid-build is never reset — HALT in_place_crash_manual_recovery', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const plan = { 'wo-01': { build: ['crash-after-write', 'change'] } };
    assert.equal(woRun(t, { plan, extra: ['--in-place'] }).code, null);
    const r = woRun(t, { plan, extra: ['--in-place'] });
    assert.equal(r.code, 1);
    assert.equal(readJson(join(t.dir, 'wo-01.HALT')).reason, 'in_place_crash_manual_recovery');
    assert.equal(readJson(join(t.dir, 'wo-01.run.json')).halted, true);
  });

  it('a reset target that is not an ancestor of HEAD HALTs reset_target_invalid', () => {
    const t = makeTask([{ n: 1, status: 'in_progress' }], { git: true });
    writeFileSync(
      join(t.dir, 'wo-01.run.json'),
      JSON.stringify({
        wo: 'wo-01',
        attempts: 1,
        checkpoint_before: 'deadbeefdeadbeef',
        halted: false,
        checkpoint_after: null,
      }),
    );
    const r = woRun(t);
    assert.equal(r.code, 1);
    assert.equal(readJson(join(t.dir, 'wo-01.HALT')).reason, 'reset_target_invalid');
  });

  it('a finished task re-run is a no-op: no agent, no commit, exit 0', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    assert.equal(woRun(t).code, 0);
    const head = gitHead(t.worktree);
    const before = calls(t).length;
    const r = woRun(t);
    assert.equal(r.code, 0);
    assert.equal(calls(t).length, before);
    assert.equal(gitHead(t.worktree), head);
  });

  it('property: no sequence of crashes and re-runs exceeds the cap or builds a TERMINAL work order', () => {
    const phaseOutcome = fc.constantFrom(
      'ok',
      'review-fail',
      'crash-build',
      'crash-review',
      'crash-critic',
      'critical',
    );
    fc.assert(
      fc.property(
        fc.array(phaseOutcome, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 3 }),
        (attempts, cap) => {
          const t = makeTask([{ n: 1 }], { git: true });
          const plan = {
            'wo-01': {
              build: attempts.map((a) => (a === 'crash-build' ? 'crash-after-write' : 'change')),
              review: attempts.map((a) =>
                a === 'review-fail' ? 'fail' : a === 'crash-review' ? 'crash' : 'pass',
              ),
              critic: attempts.map((a) =>
                a === 'critical' ? 'critical' : a === 'crash-critic' ? 'crash' : 'pass',
              ),
            },
          };
          let buildsAtHalt: number | undefined;
          for (let run = 0; run < 8; run += 1) {
            const r = woRun(t, { plan, extra: ['--cap', String(cap)] });
            const builds = calls(t).filter((c) => c.endsWith('/build')).length;
            assert.ok(builds <= cap, `builds ${builds} > cap ${cap}`);
            const sidecar = join(t.dir, 'wo-01.run.json');
            if (existsSync(sidecar)) assert.ok(readJson(sidecar).attempts <= cap);
            if (buildsAtHalt !== undefined)
              assert.equal(builds, buildsAtHalt, 'a TERMINAL work order was built again');
            if (existsSync(join(t.dir, 'wo-01.HALT'))) buildsAtHalt = builds;
            if (r.code === 0 || r.code === 1) return;
          }
          assert.fail('still crashing after 8 runs');
        },
      ),
      { numRuns: 6, seed: 13 },
    );
  });
});

const SLEEPER = `"${process.execPath}" "${join(__dirname, '../../../../test/fixtures/wo/sleeper.mjs')}"`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A killed process may linger as a zombie until it is reaped: that is dead, not running. */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

describe('wo run: agents that never end', function () {
  this.timeout(60_000);
  it('a timeout stops the agent and its whole process group; the attempt is judged from disk', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const pids = join(t.root, 'pids');
    const r = woRun(t, { builder: SLEEPER, extra: ['--timeout', '1'], env: { FAKE_PIDS: pids } });
    assert.equal(r.code, 1);
    assert.equal(readJson(join(t.dir, 'wo-01.run.json')).build_returned, false);
    assert.equal(readJson(join(t.dir, 'wo-01.HALT')).reason, 'diff_empty');
    const listed = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    assert.equal(listed.length, 2);
    for (const pid of listed) assert.equal(alive(pid), false, `pid ${pid} survived`);
  });

  it('SIGTERM cancels: the agent group is stopped, exit 130, the lock released, the attempt left for recovery', async () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const pids = join(t.root, 'pids');
    const child = woRunAsync(t, { builder: SLEEPER, env: { FAKE_PIDS: pids } });
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    for (
      let i = 0;
      i < 200 && !(existsSync(pids) && readFileSync(pids, 'utf8').trim().split('\n').length === 2);
      i += 1
    )
      await sleep(50);
    child.kill('SIGTERM');
    assert.equal(await closed, 130);
    for (const pid of readFileSync(pids, 'utf8').trim().split('\n').map(Number))
      assert.equal(alive(pid), false, `pid ${pid} survived`);
    assert.equal(existsSync(join(t.dir, '.wo-run.lock')), false);
    assert.equal(statusOf(t.file(1)), 'in_progress');
  });
});
