// What Run Queue tells a person when `wo run` ends, read from real `wo run` summaries (the CLI as
// a child process over fixture tasks with the fake agents): every gate's answer in words, a
// refusal as a warning naming the refusing gate, and a run that never started as an error.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { queueNotice } from '../../../src/extension/workorders/queueOutcome';
import { makeTask } from '../wo/fixture';
import { woRun } from '../wo/run-helpers';

describe('Run Queue: the outcome in words', function () {
  this.timeout(120_000);

  it('complete: information, every gate answered, the PR answer included', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const r = woRun(t);
    assert.equal(r.code, 0, r.stderr);
    const n = queueNotice('task', { exitCode: r.code, summary: r.json, stderr: r.stderr });
    assert.equal(n.severity, 'info');
    assert.deepEqual(n.lines, [
      'task review: pass',
      'ship gate: ship (shippable)',
      'merge gate: merge (merge_ok); auto-merge allowed',
      'mode gate (open a PR): not allowed (run_mode_unreadable)',
    ]);
    assert.equal(
      n.message,
      'Loop Ledger: task: complete, 1/1 done; the gates allow the branch. mode gate (open a PR): not allowed (run_mode_unreadable)',
    );
  });

  it('gates_refused: a warning naming the refusing gates and their reasons, never the mode gate', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    writeFileSync(join(t.root, 'project_state.md'), '---\nrunMode: autonomous\n---\n');
    const r = woRun(t, { critic: false });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.outcome, 'gates_refused');
    const n = queueNotice('task', { exitCode: r.code, summary: r.json, stderr: r.stderr });
    assert.equal(n.severity, 'warning');
    assert.equal(
      n.message,
      'Loop Ledger: task: gates refused (1/1 done): ship gate: refused (blocking_critiques); merge gate: refused (ship_not_ok:blocking_critiques); auto-merge not allowed',
    );
    assert.equal(n.lines[3], 'mode gate (open a PR): not allowed (autonomous_irreversible)');
  });

  it('an escalation names the halted work order; no gates ran', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const r = woRun(t, { plan: { 'wo-01': { critic: ['critical'] } } });
    assert.equal(r.json.outcome, 'escalation');
    const n = queueNotice('task', { exitCode: r.code, summary: r.json, stderr: r.stderr });
    assert.equal(n.severity, 'warning');
    assert.match(n.message, /^Loop Ledger: task: escalation \(0\/1 done\): wo-01 \S+$/);
    assert.deepEqual(n.lines, []);
  });

  it('a run refused before it starts: an error with the CLI’s own words, no stack', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const r = woRun(t, { extra: ['--max', '2'] });
    assert.equal(r.code, 2);
    const n = queueNotice('task', { exitCode: r.code, summary: undefined, stderr: r.stderr });
    assert.equal(n.severity, 'error');
    assert.equal(n.message, 'Loop Ledger: task: Run Queue failed: --max needs --parallel');
  });
});
