// The exit gates through the CLI: ship gate, merge gate (T-cases of the original's spec: deleted
// sidecar, either override source, bad status fails closed, exit code beats JSON) and mode gate
// (S-cases: autonomous refuses, interactive needs .pr-confirm, unreadable refuses, hooks).
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempRoot, type CliResult } from '../helpers/cli';
import { spawnSync } from 'node:child_process';
import { CLI, childEnv } from '../helpers/cli';
import { makeTask, woText, type Task } from './fixture';

const PASS = JSON.stringify({ gate_specific: { overall_verdict: 'pass' } });
const CLEAN = JSON.stringify({ blocking: false, overall: 'pass' });

function runWith(env: Record<string, string>, args: string[]): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: childEnv(env), encoding: 'utf8' });
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json };
}

/** A shippable task: review pass, every WO done with a pass review, clean critique, sidecar. */
function shippable(n = 2): Task {
  const t = makeTask(Array.from({ length: n }, (_, i) => ({ n: i + 1, status: 'done' })));
  writeFileSync(join(t.task, '_review.json'), PASS);
  for (let i = 1; i <= n; i += 1) {
    const id = `wo-0${i}`;
    writeFileSync(join(t.dir, `${id}._review.json`), PASS);
    writeFileSync(join(t.dir, `${id}._critique.json`), CLEAN);
    writeFileSync(
      join(t.dir, `${id}.run.json`),
      JSON.stringify({ wo: id, attempts: 1, override_used: false }),
    );
  }
  return t;
}

function script(body: string): string {
  const path = join(tempRoot('wo-hook-'), 'hook.sh');
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('wo ship-gate', () => {
  it('ships when the task review passes, no HALT, every WO critiqued clean', () => {
    const r = runCli(['wo', 'ship-gate', shippable().task]);
    assert.equal(r.code, 0);
    assert.deepEqual(r.json, {
      ship_ok: true,
      review_verdict: 'pass',
      halt_markers: [],
      blocking_critiques: [],
      uncritiqued_work_orders: [],
      reason: 'shippable',
    });
    assert.equal(r.stderr, 'ship_gate ship_ok=true review=pass halts=0 blocking=0 uncritiqued=0\n');
  });

  it('refuses in reason order: review, halt markers, blocking critiques, uncritiqued', () => {
    let t = shippable();
    rmSync(join(t.task, '_review.json'));
    assert.equal(runCli(['wo', 'ship-gate', t.task]).json.reason, 'review_missing');
    t = shippable();
    writeFileSync(join(t.dir, 'wo-02.HALT'), '{}');
    let r = runCli(['wo', 'ship-gate', t.task]);
    assert.equal(r.code, 1);
    assert.equal(r.json.reason, 'halt_markers');
    assert.deepEqual(r.json.halt_markers, ['wo-02.HALT']);
    t = shippable();
    writeFileSync(
      join(t.dir, 'wo-01._critique.json'),
      JSON.stringify({ blocking: true, overall: 'critical', halt_reason: 'critique_critical' }),
    );
    writeFileSync(join(t.dir, 'wo-02._critique.json'), '');
    r = runCli(['wo', 'ship-gate', t.task]);
    assert.equal(r.json.reason, 'blocking_critiques');
    assert.deepEqual(r.json.blocking_critiques, [
      { file: 'wo-01._critique.json', reason: 'critique_critical' },
      { file: 'wo-02._critique.json', reason: 'empty_or_unreadable' },
    ]);
    t = shippable();
    rmSync(join(t.dir, 'wo-02._critique.json'));
    r = runCli(['wo', 'ship-gate', t.task]);
    assert.equal(r.json.reason, 'uncritiqued_work_orders');
    assert.deepEqual(r.json.uncritiqued_work_orders, ['wo-02']);
  });

  it('a critique with overall not_evaluated or a string blocking is not clean; a missing task folder exits 2', () => {
    const t = shippable();
    writeFileSync(
      join(t.dir, 'wo-01._critique.json'),
      JSON.stringify({ blocking: false, overall: 'not_evaluated' }),
    );
    writeFileSync(
      join(t.dir, 'wo-02._critique.json'),
      JSON.stringify({ blocking: 'false', overall: 'pass' }),
    );
    assert.equal(runCli(['wo', 'ship-gate', t.task]).json.blocking_critiques.length, 2);
    const r = runCli(['wo', 'ship-gate', '/nonexistent']);
    assert.equal(r.code, 2);
    assert.deepEqual(r.json, { ship_ok: false, reason: 'task_folder_missing' });
  });
});

describe('wo merge-gate', () => {
  const merge = (task: string, env: Record<string, string> = {}) => runWith(env, ['wo', 'merge-gate', task]);

  it('T1 all green: merge_ok and auto_merge_allowed', () => {
    const r = merge(shippable().task);
    assert.equal(r.code, 0);
    assert.deepEqual(r.json, {
      merge_ok: true,
      auto_merge_allowed: true,
      ship_ok: true,
      review_verdict: 'pass',
      per_wo_review_failures: [],
      overrides_used: [],
      missing_run_state: [],
      halts: [],
      blocking: [],
      reason: 'merge_ok',
    });
    assert.equal(
      r.stderr,
      'merge_gate merge_ok=true auto_merge=true ship_ok=true review=pass per_wo_fail=0 overrides=0\n',
    );
  });

  it('T2 ship gate not ok ⇒ ship_not_ok:<reason>', () => {
    const t = shippable();
    writeFileSync(join(t.dir, 'wo-01.HALT'), '{}');
    const r = merge(t.task);
    assert.equal(r.code, 1);
    assert.equal(r.json.reason, 'ship_not_ok:halt_markers');
    assert.deepEqual(r.json.halts, ['wo-01.HALT']);
  });

  it('T3/T4 a failing or missing per-WO review ⇒ per_wo_review_failed:<wo>', () => {
    let t = shippable();
    writeFileSync(
      join(t.dir, 'wo-01._review.json'),
      JSON.stringify({ gate_specific: { overall_verdict: 'fail' } }),
    );
    let r = merge(t.task);
    assert.equal(r.json.reason, 'per_wo_review_failed:wo-01');
    assert.deepEqual(r.json.per_wo_review_failures, ['wo-01']);
    t = shippable();
    rmSync(join(t.dir, 'wo-02._review.json'));
    r = merge(t.task);
    assert.equal(r.json.reason, 'per_wo_review_failed:wo-02');
  });

  it('T5 a deleted sidecar of a dispatched WO ⇒ missing_run_state (fail closed)', () => {
    const t = shippable();
    rmSync(join(t.dir, 'wo-02.run.json'));
    const r = merge(t.task);
    assert.equal(r.code, 1);
    assert.equal(r.json.reason, 'missing_run_state:wo-02');
    assert.deepEqual(r.json.missing_run_state, ['wo-02']);
  });

  it('T6/T7 an override from either source blocks auto-merge only', () => {
    let t = shippable();
    writeFileSync(join(t.dir, 'wo-01.run.json'), JSON.stringify({ attempts: 1, override_used: true }));
    let r = merge(t.task);
    assert.equal(r.json.merge_ok, true);
    assert.equal(r.json.auto_merge_allowed, false);
    assert.deepEqual(r.json.overrides_used, ['wo-01']);
    t = shippable();
    writeFileSync(
      t.file(2),
      woText({ n: 2, status: 'done' }).replace(
        'coverage_override: null',
        'coverage_override: {reason: r, by: b, at: "2026-01-01"}',
      ),
    );
    r = merge(t.task);
    assert.equal(r.code, 0);
    assert.deepEqual(r.json.overrides_used, ['wo-02']);
    assert.equal(r.json.auto_merge_allowed, false);
  });

  it('T8 an off-enum, missing or unreadable status fails closed as missing_run_state; ready/blocked are skipped', () => {
    const t = shippable(3);
    writeFileSync(t.file(1), woText({ n: 1, status: 'shipped' }));
    writeFileSync(
      t.file(2),
      woText({ n: 2, status: 'done' }).replace('custom_key', 'a: &x 1\nb: *x\ncustom_key'),
    );
    writeFileSync(t.file(3), woText({ n: 3, status: 'ready' }));
    rmSync(join(t.dir, 'wo-03.run.json'));
    const r = merge(t.task);
    assert.deepEqual(r.json.missing_run_state, ['wo-01', 'wo-02']);
  });

  it('T9 $WO_SHIP_GATE_CMD: its exit code beats its JSON; empty output is ship_gate_no_output', () => {
    const t = shippable();
    let r = merge(t.task, {
      WO_SHIP_GATE_CMD: script(
        `echo '{"ship_ok":true,"review_verdict":"pass","reason":"shippable"}'; exit 3`,
      ),
    });
    assert.equal(r.json.ship_ok, false);
    assert.equal(r.json.merge_ok, false);
    r = merge(t.task, { WO_SHIP_GATE_CMD: script('exit 0') });
    assert.equal(r.json.reason, 'ship_not_ok:ship_gate_no_output');
    r = merge(t.task, {
      WO_SHIP_GATE_CMD: script(
        `echo '{"ship_ok":true,"review_verdict":"pass","halt_markers":[],"blocking_critiques":[],"reason":"shippable"}'`,
      ),
    });
    assert.equal(r.json.merge_ok, true);
  });

  it('T10 $WO_RUN_STATE_CMD is asked for every dispatched sidecar; its refusal is missing_run_state', () => {
    const t = shippable();
    const r = merge(t.task, {
      WO_RUN_STATE_CMD: script(`[ "$1" = read ] || exit 9; echo '{"ok":false}'; exit 1`),
    });
    assert.deepEqual(r.json.missing_run_state, ['wo-01', 'wo-02']);
  });

  it('T11 a missing task folder exits 2 with the full key set', () => {
    const r = merge('/nonexistent');
    assert.equal(r.code, 2);
    assert.equal(r.json.reason, 'task_folder_missing');
    assert.equal(r.json.merge_ok, false);
  });
});

describe('wo mode-gate', () => {
  function project(runMode: string | null, taskMode?: string): { task: string; root: string } {
    const root = tempRoot('wo-mode-');
    if (runMode !== null) writeFileSync(join(root, 'project_state.md'), `---\nrunMode: ${runMode}\n---\n`);
    const task = join(root, 'tasks', 't1');
    mkdirSync(task, { recursive: true });
    if (taskMode) writeFileSync(join(task, 'task.md'), `---\nrun_mode: ${taskMode}\n---\n`);
    return { task, root };
  }
  const mode = (task: string, extra: string[] = [], env: Record<string, string> = {}) =>
    runWith(env, ['wo', 'mode-gate', task, ...extra]);

  it('S1 interactive + .pr-confirm ⇒ allowed (confirmed)', () => {
    const p = project('interactive');
    writeFileSync(join(p.task, '.pr-confirm'), '');
    const r = mode(p.task);
    assert.equal(r.code, 0);
    assert.deepEqual(r.json, {
      action: 'pr-open',
      mode: 'interactive',
      allowed: true,
      reason: 'confirmed',
      halt_reason: null,
      confirm_artifact: join(p.task, '.pr-confirm'),
    });
    assert.equal(r.stderr, 'mode_gate allowed=true mode=interactive reason=confirmed\n');
  });

  it('S2 interactive without the confirm ⇒ interactive_unconfirmed', () => {
    const r = mode(project('interactive').task);
    assert.equal(r.code, 1);
    assert.equal(r.json.reason, 'interactive_unconfirmed');
    assert.equal(r.json.halt_reason, 'interactive_unconfirmed');
  });

  it('S3 autonomous refuses even with a confirm; S4 a task tightens to autonomous, never loosens', () => {
    const a = project('autonomous', 'interactive');
    writeFileSync(join(a.task, '.pr-confirm'), '');
    let r = mode(a.task);
    assert.equal(r.code, 1);
    assert.equal(r.json.mode, 'autonomous');
    assert.equal(r.json.reason, 'autonomous_irreversible');
    const b = project('interactive', 'autonomous');
    writeFileSync(join(b.task, '.pr-confirm'), '');
    r = mode(b.task);
    assert.equal(r.json.reason, 'autonomous_irreversible');
  });

  it('S5 no project state, or a garbage runMode ⇒ run_mode_unreadable', () => {
    let r = mode(project(null).task);
    assert.equal(r.json.mode, 'unreadable');
    assert.equal(r.json.reason, 'run_mode_unreadable');
    r = mode(project('sometimes').task);
    assert.equal(r.json.reason, 'run_mode_unreadable');
  });

  it('S6 --mode overrides verbatim; a non-enum --mode is unreadable; an unknown flag exits 2', () => {
    const p = project(null);
    writeFileSync(join(p.task, '.pr-confirm'), '');
    assert.equal(mode(p.task, ['--mode', 'interactive']).code, 0);
    assert.equal(mode(p.task, ['--mode', 'yolo']).json.reason, 'run_mode_unreadable');
    const bad = mode(p.task, ['--bogus']);
    assert.equal(bad.code, 2);
    assert.equal(bad.json.reason, 'bad_args');
  });

  it('S7 $WO_PROJECT_STATE_CMD is the project reader; $WO_CONFIRM_ARTIFACT moves the confirm', () => {
    const p = project(null);
    const confirm = join(p.root, 'confirm-here');
    writeFileSync(confirm, '');
    writeFileSync(join(p.root, 'project_state.md'), 'anything');
    const r = mode(p.task, [], {
      WO_PROJECT_STATE_CMD: script(`echo '{"runMode":"interactive"}'`),
      WO_CONFIRM_ARTIFACT: confirm,
    });
    assert.equal(r.code, 0);
    assert.equal(r.json.confirm_artifact, confirm);
    const broken = mode(p.task, [], { WO_PROJECT_STATE_CMD: script('exit 1') });
    assert.equal(broken.json.reason, 'run_mode_unreadable');
  });

  it('S8 --operator-uid must own the confirm; S9 a missing task folder exits 2', () => {
    const p = project('interactive');
    writeFileSync(join(p.task, '.pr-confirm'), '');
    const uid = String(process.getuid?.() ?? 0);
    assert.equal(mode(p.task, ['--operator-uid', uid]).code, 0);
    assert.equal(mode(p.task, ['--operator-uid', '424242']).json.reason, 'interactive_unconfirmed');
    assert.equal(mode('/nonexistent').code, 2);
  });
});
