// The exit of `wo run` (the reconcile table's "all done" row, then the exit gates): once every work
// order is done, a task review of the assembled HEAD, then the ship, merge and mode gates as their
// kernels answer. The merge gate's exit code decides the run's; the mode gate's answer (may a PR be
// opened) is reported only.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitHead, makeTask } from './fixture';
import { calls, readJson, woRun } from './run-helpers';

describe('wo run: gates at the end', function () {
  this.timeout(120_000);

  it('all done, reviewed and critiqued: task review, ship and merge gates pass (exit 0), mode gate reported', () => {
    const t = makeTask([{ n: 1 }, { n: 2 }], { git: true });
    const r = woRun(t);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.outcome, 'complete');
    const g = r.json.gates;
    assert.deepEqual(g.task_review, { verdict: 'pass', reused: false, reviewed_head: gitHead(t.worktree) });
    assert.equal(g.ship_gate.exit_code, 0);
    assert.equal(g.ship_gate.ship_ok, true);
    assert.equal(g.merge_gate.exit_code, 0);
    assert.equal(g.merge_gate.merge_ok, true);
    assert.equal(g.merge_gate.auto_merge_allowed, true);
    // No project_state.md anywhere above the task: the mode gate cannot tell, so no PR.
    assert.equal(g.mode_gate.exit_code, 1);
    assert.equal(g.mode_gate.reason, 'run_mode_unreadable');
    // The kernels' own status lines are forwarded verbatim, then the loop's summary line.
    assert.match(r.stderr, /^ship_gate ship_ok=true review=pass halts=0 blocking=0 uncritiqued=0$/m);
    assert.match(r.stderr, /^merge_gate merge_ok=true auto_merge=true /m);
    assert.match(r.stderr, /^mode_gate allowed=false mode=unreadable reason=run_mode_unreadable$/m);
    assert.match(
      r.stderr,
      /^wo-run gates task_review=pass ship_ok=true merge_ok=true auto_merge=true pr_allowed=false pr_reason=run_mode_unreadable$/m,
    );
    const review = readJson(join(t.task, '_review.json'));
    assert.equal(review.gate_specific.overall_verdict, 'pass');
    assert.equal(review.reviewed_head, gitHead(t.worktree));
    assert.equal(calls(t).filter((c) => c === 'task/a1/review').length, 1);
  });

  it('a re-run over a done task reuses the task review of the same HEAD (never repeated)', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    assert.equal(woRun(t).code, 0);
    const again = woRun(t);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.json.gates.task_review.reused, true);
    assert.equal(calls(t).filter((c) => c === 'task/a1/review').length, 1);
  });

  it('a failing task review refuses the gates: outcome gates_refused, exit 1', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const r = woRun(t, { plan: { task: { review: ['fail'] } } });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.outcome, 'gates_refused');
    assert.equal(r.json.work_orders[0].status, 'done');
    assert.equal(r.json.gates.task_review.verdict, 'fail');
    assert.equal(r.json.gates.ship_gate.ship_ok, false);
    assert.equal(r.json.gates.merge_gate.merge_ok, false);
    assert.match(String(r.json.gates.merge_gate.reason), /^ship_not_ok/);
  });

  it('without a critic nothing is critiqued, so the ship gate refuses', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const r = woRun(t, { critic: false });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.outcome, 'gates_refused');
    assert.equal(r.json.gates.ship_gate.exit_code, 1);
    assert.match(r.stderr, /^ship_gate ship_ok=false review=pass halts=0 blocking=1 /m);
  });

  it('the merge gate honours $WO_SHIP_GATE_CMD (a refusing hook refuses the run)', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const r = woRun(t, { env: { WO_SHIP_GATE_CMD: 'false' } });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.gates.merge_gate.merge_ok, false);
    assert.equal(r.json.gates.ship_gate.ship_ok, true, 'the ship-gate kernel itself still says yes');
  });

  it('mode gate: interactive with .pr-confirm allows a PR; autonomous withholds it and still exits 0', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    writeFileSync(join(t.root, 'project_state.md'), '---\nrunMode: interactive\n---\n');
    writeFileSync(join(t.task, '.pr-confirm'), '');
    const r = woRun(t);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.gates.mode_gate.allowed, true);
    assert.equal(r.json.gates.mode_gate.reason, 'confirmed');

    const auto = makeTask([{ n: 1 }], { git: true });
    writeFileSync(join(auto.root, 'project_state.md'), '---\nrunMode: autonomous\n---\n');
    const a = woRun(auto);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(a.json.outcome, 'complete');
    assert.equal(a.json.gates.mode_gate.allowed, false);
    assert.equal(a.json.gates.mode_gate.reason, 'autonomous_irreversible');
  });

  it('an escalation runs no gates', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const r = woRun(t, { plan: { 'wo-01': { critic: ['critical'] } } });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.outcome, 'escalation');
    assert.equal(r.json.gates, null);
    assert.doesNotMatch(r.stderr, /ship_gate/);
  });
});
