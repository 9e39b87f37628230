// `wo run`, the sequential pass, end to end with fake agents (A-cases): dependencies, retry to
// done, the cap, gate refusals, a blocking critique, an empty build, the kill switch and budget
// hook, and the ledger mapping (a session per work order, an epoch per attempt).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLedger } from '../helpers/cli';
import { gitHead, makeTask, statusOf, woText } from './fixture';
import { calls, obsRecords, readJson, woRun } from './run-helpers';

const gitLog = (cwd: string): string[] =>
  execFileSync('git', ['log', '--format=%s'], { cwd, encoding: 'utf8' }).trim().split('\n');

describe('wo run (the sequential pass)', function () {
  this.timeout(120_000);

  it('A1 three dependent work orders build in dependency order, each once, all done (exit 0)', () => {
    const t = makeTask([{ n: 1 }, { n: 2, blockedBy: [1] }, { n: 3, blockedBy: [2] }], { git: true });
    const r = woRun(t);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.outcome, 'complete');
    assert.deepEqual(
      r.json.work_orders.map((w: { wo_id: string; status: string; attempts: number }) => [
        w.wo_id,
        w.status,
        w.attempts,
      ]),
      [
        ['wo-01', 'done', 1],
        ['wo-02', 'done', 1],
        ['wo-03', 'done', 1],
      ],
    );
    assert.deepEqual(gitLog(t.worktree), [
      'wo-03: build attempt 1',
      'wo-02: build attempt 1',
      'wo-01: build attempt 1',
      'base',
    ]);
    assert.deepEqual(calls(t), [
      'wo-01/a1/build',
      'wo-01/a1/review',
      'wo-01/a1/critic',
      'wo-02/a1/build',
      'wo-02/a1/review',
      'wo-02/a1/critic',
      'wo-03/a1/build',
      'wo-03/a1/review',
      'wo-03/a1/critic',
      'task/a1/review', // the exit's task review (see run-gates.test.ts)
    ]);
    const run = readJson(join(t.dir, 'wo-02.run.json'));
    assert.equal(run.attempts, 1);
    assert.equal(
      run.checkpoint_after,
      gitLog(t.worktree).length &&
        execFileSync('git', ['rev-parse', 'HEAD~1'], { cwd: t.worktree, encoding: 'utf8' }).trim(),
    );
    assert.equal(run.produced_changes, true);
    assert.equal(readJson(join(t.dir, 'wo-01._critique.json')).blocking, false);
    assert.deepEqual(
      obsRecords(t).map((o) => [o.wo_id, o.disposition]),
      [
        ['wo-01', 'done'],
        ['wo-02', 'done'],
        ['wo-03', 'done'],
      ],
    );
    assert.match(r.stderr, /^wo-01 critique=pass tier=low mode=fanout blocking=false critique_ref=/m);
    // the ledger: one session per work order, closed complete, phases as actions
    const ledger = readLedger(t.root, 'wo-01');
    assert.equal(ledger.status, 'closed');
    assert.equal(ledger.final_outcome, 'complete');
    assert.deepEqual(ledger.completed_actions, ['wo-01/a1/build', 'wo-01/a1/review', 'wo-01/a1/critique']);
    // unknown frontmatter keys kept byte for byte: only the status line changed
    assert.equal(readFileSync(t.file(1), 'utf8'), woText({ n: 1 }).replace('status: ready', 'status: done'));
    assert.equal(
      readFileSync(t.file(3), 'utf8'),
      woText({ n: 3, blockedBy: [2] }).replace('status: blocked', 'status: done'),
    );
  });

  it('A2 a review failure resets to the checkpoint and retries: done at attempt 2, base never rewritten', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const base = gitHead(t.worktree);
    const r = woRun(t, { plan: { 'wo-01': { review: ['fail', 'pass'] } } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readJson(join(t.dir, 'wo-01.run.json')).attempts, 2);
    assert.equal(readJson(join(t.dir, 'wo-01.run.json')).checkpoint_before, base);
    assert.deepEqual(gitLog(t.worktree), ['wo-01: build attempt 2', 'base'], 'attempt 1 was reset away');
    assert.deepEqual(
      obsRecords(t).map((o) => [o.disposition, o.attempts]),
      [
        ['needs_rework', 1],
        ['done', 2],
      ],
    );
    const ledger = readLedger(t.root, 'wo-01');
    assert.equal(ledger.epoch, 2);
    assert.equal(ledger.epochs[0].final_outcome, 'revise');
    assert.equal(ledger.final_outcome, 'complete');
  });

  it('A3 the cap: every review fails, cap 2 ⇒ two builds, the third dispatch HALTs retry_cap_exhausted; dependents wait', () => {
    const t = makeTask([{ n: 1 }, { n: 2, blockedBy: [1] }], { git: true });
    const base = gitHead(t.worktree);
    const r = woRun(t, { plan: { 'wo-01': { review: ['fail'] } }, extra: ['--cap', '2'] });
    assert.equal(r.code, 1);
    assert.equal(r.json.outcome, 'escalation');
    assert.equal(calls(t).filter((c) => c.endsWith('/build')).length, 2);
    const marker = readJson(join(t.dir, 'wo-01.HALT'));
    assert.equal(marker.reason, 'retry_cap_exhausted');
    assert.equal(marker.wo_id, 'wo-01');
    assert.equal(statusOf(t.file(1)), 'ready', 'a capped WO stays ready (ready → needs_rework is illegal)');
    const run = readJson(join(t.dir, 'wo-01.run.json'));
    assert.equal(run.attempts, 2);
    assert.equal(run.halted, true);
    assert.equal(gitHead(t.worktree), base);
    assert.equal(r.json.work_orders[1].waiting_on, 'deps_not_done:local:t#wo-01');
    assert.equal(statusOf(t.file(2)), 'blocked');
    // a re-run changes nothing: terminal is never dispatched again
    const again = woRun(t, { plan: { 'wo-01': { review: ['fail'] } }, extra: ['--cap', '2'] });
    assert.equal(again.code, 1);
    assert.equal(calls(t).filter((c) => c.endsWith('/build')).length, 2);
    assert.equal(readJson(join(t.dir, 'wo-01.run.json')).attempts, 2);
  });

  it('A4 a grounding refusal HALTs with its reason before any attempt: no sidecar, no spawn', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    writeFileSync(t.file(1), woText({ n: 1 }).replace('verified: true', 'verified: false'));
    const r = woRun(t);
    assert.equal(r.code, 1);
    assert.equal(readJson(join(t.dir, 'wo-01.HALT')).reason, 'verified_false');
    assert.equal(existsSync(join(t.dir, 'wo-01.run.json')), false);
    assert.deepEqual(calls(t), []);
    assert.equal(obsRecords(t)[0].disposition, 'terminal_halt');
  });

  it('A5 a critical critique is TERMINAL: marker, no reset, no requeue, ledger escalate', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const r = woRun(t, { plan: { 'wo-01': { critic: ['critical'] } } });
    assert.equal(r.code, 1);
    assert.equal(readJson(join(t.dir, 'wo-01.HALT')).reason, 'critique_critical');
    assert.equal(statusOf(t.file(1)), 'in_progress');
    assert.deepEqual(
      gitLog(t.worktree),
      ['wo-01: build attempt 1', 'base'],
      'no reset on a terminal verdict',
    );
    assert.equal(obsRecords(t)[0].disposition, 'terminal_escalated', 'a blocking critique escalates');
    const ledger = readLedger(t.root, 'wo-01');
    assert.equal(ledger.final_outcome, 'escalate');
    assert.equal(ledger.close_blocker, 'critique_critical');
    assert.equal(ledger.close_evidence, join(t.dir, 'wo-01.HALT'));
  });

  it('A6 a build that changes nothing is diff_empty ⇒ TERMINAL', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const r = woRun(t, { plan: { 'wo-01': { build: ['nochange'] } } });
    assert.equal(r.code, 1);
    assert.equal(readJson(join(t.dir, 'wo-01.HALT')).reason, 'diff_empty');
    const run = readJson(join(t.dir, 'wo-01.run.json'));
    assert.equal(run.checkpoint_after, null);
    assert.equal(run.produced_changes, false, 'no change is recorded explicitly');
  });

  it('A7 the kill switch and $WO_BUDGET_CMD stop at the boundary, write no marker, dispatch nothing', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    writeFileSync(join(t.task, '.kill'), '');
    let r = woRun(t);
    assert.equal(r.code, 1);
    assert.equal(r.json.outcome, 'stopped');
    assert.equal(r.json.stop_reason, 'kill_switch');
    assert.deepEqual(calls(t), []);
    assert.equal(existsSync(join(t.dir, 'wo-01.HALT')), false);
    execFileSync(process.execPath, [join(__dirname, '../../../../dist/cli.js'), 'wo', 'unkill', t.task]);
    r = woRun(t, { env: { WO_BUDGET_CMD: '/bin/false' } });
    assert.equal(r.json.stop_reason, 'budget_exceeded');
    assert.deepEqual(calls(t), []);
    r = woRun(t, { env: { WO_BUDGET_CMD: '/bin/true' } });
    assert.equal(r.code, 0, r.stderr);
  });

  it('A8 without a critic the critique is not evaluated, not blocking: review pass ⇒ done (the ship gate then refuses)', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const r = woRun(t, { critic: false });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.outcome, 'gates_refused');
    assert.equal(r.json.work_orders[0].status, 'done');
    const critique = readJson(join(t.dir, 'wo-01._critique.json'));
    assert.equal(critique.overall, 'not_evaluated');
    assert.equal(critique.blocking, false);
  });

  it('A9 in-place mode never resets: a review failure is TERMINAL in_place_review_fail', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const r = woRun(t, { plan: { 'wo-01': { review: ['fail'] } }, extra: ['--in-place'] });
    assert.equal(r.code, 1);
    assert.equal(readJson(join(t.dir, 'wo-01.HALT')).reason, 'in_place_review_fail');
    assert.deepEqual(gitLog(t.worktree), ['wo-01: build attempt 1', 'base']);
  });

  it('refusals: usage errors exit 2 with one line; a live lock holder exits 3', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    let r = woRun(t, { extra: ['--parallel', '--in-place'] });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--parallel and --in-place exclude each other/);
    r = woRun(t, { extra: ['--cap', 'abc'] });
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    r = woRun(t, { extra: ['--frobnicate'] });
    assert.equal(r.code, 2);
    writeFileSync(join(t.dir, '.wo-run.lock'), `${process.pid}\n`);
    r = woRun(t);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /busy/);
    writeFileSync(join(t.dir, '.wo-run.lock'), '999999999\n');
    r = woRun(t);
    assert.equal(r.code, 0, 'a dead holder is taken over');
    const inside = makeTask([{ n: 1 }], { git: true });
    const r2 = woRun({ ...inside, worktree: inside.root }, {});
    assert.equal(r2.code, 2, 'the root is not a git work tree');
  });
});
