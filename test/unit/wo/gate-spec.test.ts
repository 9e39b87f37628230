// The original's merge-gate spec (T1–T16) and mode-gate spec (S1–S12), ported case by case with
// its fixtures' shapes (ship-gate stubs through $WO_SHIP_GATE_CMD; `**Run Mode:**` project state
// lines; a task nested under the project). Cases already covered in gates.test.ts are named there;
// this file holds the rest, run through the CLI as a child process.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempRoot, type CliResult } from '../helpers/cli';

function run(args: string[], env: Record<string, string> = {}): CliResult {
  return runCli(args, { env });
}

function stub(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('wo merge-gate: the original spec T1–T16 (remaining cases)', () => {
  let tmp: string;
  let okStub: string;
  before(() => {
    tmp = tempRoot('wo-merge-spec-');
    okStub = stub(
      tmp,
      'ok.sh',
      `echo '{"ship_ok":true,"review_verdict":"pass","halt_markers":[],"blocking_critiques":[],"uncritiqued_work_orders":[],"reason":"shippable"}'`,
    );
  });
  const failStub = (reason: string) =>
    stub(
      tmp,
      `fail-${reason}.sh`,
      `echo '{"ship_ok":false,"review_verdict":"fail","halt_markers":[],"blocking_critiques":[],"uncritiqued_work_orders":[],"reason":"${reason}"}'; exit 1`,
    );
  let n = 0;
  /** The original's fixture: `<task>/work-orders/wo-01-slug.md` with `id: wo-01`. */
  function task(opts: {
    status?: string | null;
    override?: string;
    review?: string | null;
    sidecar?: 'ok' | 'override' | 'bad' | null;
    fileName?: string;
    frontmatter?: boolean;
  }) {
    n += 1;
    const t = join(tmp, `t${n}`);
    const dir = join(t, 'work-orders');
    mkdirSync(dir, { recursive: true });
    const lines = ['id: wo-01'];
    if (opts.status !== null) lines.push(`status: ${opts.status ?? 'done'}`);
    if (opts.override) lines.push(`coverage_override: ${opts.override}`);
    const text =
      opts.frontmatter === false
        ? '# Work Order — no frontmatter\nsome body text\n'
        : `---\n${lines.join('\n')}\n---\n# Work Order\n`;
    writeFileSync(join(dir, opts.fileName ?? 'wo-01-slug.md'), text);
    if (opts.review !== null)
      writeFileSync(
        join(dir, 'wo-01._review.json'),
        JSON.stringify({
          schema_version: '1.2',
          gate_type: 'review',
          gate_specific: { overall_verdict: opts.review ?? 'pass' },
        }),
      );
    const sidecar = opts.sidecar === undefined ? 'ok' : opts.sidecar;
    if (sidecar === 'bad') writeFileSync(join(dir, 'wo-01.run.json'), '{ bad json\n');
    else if (sidecar !== null)
      writeFileSync(
        join(dir, 'wo-01.run.json'),
        JSON.stringify({
          wo: 'wo-01',
          attempts: 1,
          checkpoint_before: 'abc123',
          dispatched_at: '2026-01-01T00:00:00Z',
          halted: false,
          halt_reason: null,
          override_used: sidecar === 'override',
          build_returned: true,
          checkpoint_after: 'def456',
        }),
      );
    return t;
  }
  const gate = (t: string, ship = okStub) => run(['wo', 'merge-gate', t], { WO_SHIP_GATE_CMD: ship });

  it('T1 (stubbed ship gate) full green: merge_ok, auto_merge_allowed, reason merge_ok, exit 0', () => {
    const r = gate(task({}));
    assert.equal(r.code, 0);
    assert.equal(r.json.merge_ok, true);
    assert.equal(r.json.auto_merge_allowed, true);
    assert.equal(r.json.reason, 'merge_ok');
  });

  it('T2 a ship gate reporting halt_markers (exit 1) ⇒ ship_not_ok:halt_markers, auto-merge refused', () => {
    const r = gate(task({}), failStub('halt_markers'));
    assert.notEqual(r.code, 0);
    assert.equal(r.json.merge_ok, false);
    assert.equal(r.json.auto_merge_allowed, false);
    assert.equal(r.json.reason, 'ship_not_ok:halt_markers');
  });

  it('T6 a malformed sidecar of a dispatched work order ⇒ missing_run_state:wo-01', () => {
    const r = gate(task({ sidecar: 'bad' }));
    assert.notEqual(r.code, 0);
    assert.equal(r.json.merge_ok, false);
    assert.equal(r.json.reason, 'missing_run_state:wo-01');
  });

  it('T8 any non-null frontmatter coverage_override (even a bare string) is an override, though the sidecar says not', () => {
    const r = gate(task({ override: 'manual_override' }));
    assert.equal(r.code, 0);
    assert.equal(r.json.merge_ok, true);
    assert.equal(r.json.auto_merge_allowed, false);
    assert.deepEqual(r.json.overrides_used, ['wo-01']);
  });

  it('T9 a ship gate reporting blocking_critiques ⇒ ship_not_ok:blocking_critiques, ship_ok false', () => {
    const r = gate(task({}), failStub('blocking_critiques'));
    assert.notEqual(r.code, 0);
    assert.equal(r.json.ship_ok, false);
    assert.equal(r.json.merge_ok, false);
    assert.equal(r.json.reason, 'ship_not_ok:blocking_critiques');
  });

  it('T10 the $WO_SHIP_GATE_CMD stub alone decides ship_ok (env hook isolated)', () => {
    const r = gate(task({}), failStub('stub_fail'));
    assert.notEqual(r.code, 0);
    assert.equal(r.json.ship_ok, false);
    assert.equal(r.json.merge_ok, false);
  });

  it('T11 shell metacharacters in a work-order file name are inert data', () => {
    const t = task({ fileName: 'wo-01-bad;echo pwned.md' });
    const r = gate(t);
    assert.equal(r.code, 0);
    assert.equal(r.json.merge_ok, true);
    assert.equal(r.json.auto_merge_allowed, true);
    assert.deepEqual(readdirSync(t).sort(), ['work-orders'], 'nothing was executed or written');
  });

  it('T12 an off-enum status + failing review + sidecar override fails closed: wo-01 in missing_run_state', () => {
    const r = gate(task({ status: 'unreadable_garbage', review: 'fail', sidecar: 'override' }));
    assert.notEqual(r.code, 0);
    assert.equal(r.json.merge_ok, false);
    assert.deepEqual(r.json.missing_run_state, ['wo-01']);
  });

  it('T15 no status key at all (same adversarial combo) fails closed, never skipped as not dispatched', () => {
    const r = gate(
      task({ status: null, review: 'fail', sidecar: 'override', fileName: 'wo-01-nostatus-slug.md' }),
    );
    assert.notEqual(r.code, 0);
    assert.equal(r.json.merge_ok, false);
    assert.deepEqual(r.json.missing_run_state, ['wo-01']);
  });

  it('T16 no frontmatter at all (same adversarial combo) fails closed', () => {
    const r = gate(
      task({ frontmatter: false, review: 'fail', sidecar: 'override', fileName: 'wo-01-nofm-slug.md' }),
    );
    assert.notEqual(r.code, 0);
    assert.equal(r.json.merge_ok, false);
    assert.deepEqual(r.json.missing_run_state, ['wo-01']);
  });

  it('T13/T14 (stubbed): ship_ok true with exit 3 is not ok; empty ship output still prints a full JSON verdict', () => {
    const exit3 = stub(
      tmp,
      'exit3.sh',
      `echo '{"ship_ok":true,"review_verdict":"pass","reason":"shippable"}'; exit 3`,
    );
    const r = gate(task({}), exit3);
    assert.notEqual(r.code, 0);
    assert.equal(r.json.ship_ok, false);
    assert.equal(r.json.merge_ok, false);
    const silent = gate(task({}), stub(tmp, 'silent.sh', 'exit 0'));
    assert.equal(silent.json.merge_ok, false);
    assert.ok(typeof silent.json.reason === 'string' && silent.json.reason.length > 0);
  });
});

describe('wo mode-gate: the original spec S1–S12 (with its `**Run Mode:**` project files)', () => {
  let tmp: string;
  before(() => {
    tmp = tempRoot('wo-mode-spec-');
  });
  /** project_state.md carries `**Run Mode:** <mode>`, or no such line (`none`). */
  function project(name: string, mode: string): string {
    const p = join(tmp, name);
    mkdirSync(p, { recursive: true });
    writeFileSync(
      join(p, 'project_state.md'),
      mode === 'none' ? `# ${name}\n` : `# ${name}\n**Run Mode:** ${mode}\n`,
    );
    return p;
  }
  function task(root: string, sub: string, taskMode: string, confirm: boolean): string {
    const t = join(root, 'impl', sub);
    mkdirSync(t, { recursive: true });
    writeFileSync(
      join(t, 'task.md'),
      taskMode === 'none'
        ? `---\nid: local:${sub}\n---\n# task\n`
        : `---\nid: local:${sub}\nrun_mode: ${taskMode}\n---\n# task\n`,
    );
    if (confirm) writeFileSync(join(t, '.pr-confirm'), '');
    return t;
  }
  const gate = (args: string[], env: Record<string, string> = {}) => run(['wo', 'mode-gate', ...args], env);
  function check(r: CliResult, allowed: boolean, code: number, halt: string | null): void {
    assert.equal(r.json.allowed, allowed, r.stdout);
    assert.equal(r.code, code, r.stdout);
    assert.equal(r.json.halt_reason, halt, r.stdout);
  }

  it('S1 autonomous refuses whether or not the confirm exists (the confirm is never consulted)', () => {
    const p = project('p1', 'autonomous');
    check(
      gate([task(p, 's1a', 'autonomous', true), '--action', 'pr-open']),
      false,
      1,
      'autonomous_irreversible',
    );
    check(
      gate([task(p, 's1b', 'autonomous', false), '--action', 'pr-open']),
      false,
      1,
      'autonomous_irreversible',
    );
  });

  it('S2 interactive (from the **Run Mode:** line) + .pr-confirm ⇒ allowed', () => {
    const r = gate([task(project('p2', 'interactive'), 's2', 'none', true)]);
    check(r, true, 0, null);
    assert.equal(r.json.mode, 'interactive');
  });

  it('S3 interactive without the confirm ⇒ interactive_unconfirmed', () => {
    check(
      gate([task(project('p3', 'interactive'), 's3', 'none', false)]),
      false,
      1,
      'interactive_unconfirmed',
    );
  });

  it('S4 a broken project reader ⇒ run_mode_unreadable; S4b no project_state.md above the task ⇒ unreadable', () => {
    const bad = stub(tmp, 'badps.sh', 'echo "{ not json"');
    const t = task(project('p4', 'interactive'), 's4', 'none', true);
    check(gate([t], { WO_PROJECT_STATE_CMD: bad }), false, 1, 'run_mode_unreadable');
    const orphan = join(tmp, 'orphan', 'task');
    mkdirSync(orphan, { recursive: true });
    writeFileSync(join(orphan, 'task.md'), '---\nid: local:o\n---\n');
    check(gate([orphan]), false, 1, 'run_mode_unreadable');
  });

  it('S5 bad arguments exit 2: no task, a missing folder, a file, an unknown flag', () => {
    assert.equal(gate([]).code, 2);
    assert.equal(gate([join(tmp, 'nonexistent-xyz')]).code, 2);
    const file = join(tmp, 'afile');
    writeFileSync(file, '');
    assert.equal(gate([file]).code, 2);
    const unknown = gate([task(project('p5', 'interactive'), 's5', 'none', true), '--bogus-flag']);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.json.reason, 'bad_args');
    assert.equal(
      unknown.json.confirm_artifact,
      '',
      'as the original: not resolved before the arguments parse',
    );
  });

  it('a value flag with nothing after it (`--mode` last, and each of the other three) is a usage error, never an allow', () => {
    // The task allows on its own (interactive + confirm): only the missing value can refuse it.
    const t = task(project('p5e', 'interactive'), 's5e', 'none', true);
    check(gate([t]), true, 0, null);
    for (const flag of ['--mode', '--action', '--project-root', '--operator-uid']) {
      const r = gate([t, flag]);
      assert.equal(r.code, 2, `${flag}: ${r.stdout}`);
      assert.equal(r.json.allowed, false);
      assert.equal(r.json.reason, 'bad_args');
      assert.match(r.stderr, new RegExp(`wo-mode-gate: ${flag} needs a value\n`));
      assert.match(r.stderr, /mode_gate allowed=false mode=unknown reason=bad_args\n$/);
    }
    // A stray word after the flags is refused the same way (the original's `*)` branch).
    assert.equal(gate([t, '--mode', 'interactive', 'extra']).code, 2);
  });

  it('S7 a task run_mode autonomous tightens an interactive project; S8 a task interactive cannot loosen an autonomous one', () => {
    check(
      gate([task(project('p7', 'interactive'), 's7', 'autonomous', true)]),
      false,
      1,
      'autonomous_irreversible',
    );
    check(
      gate([task(project('p8', 'autonomous'), 's8', 'interactive', true)]),
      false,
      1,
      'autonomous_irreversible',
    );
  });

  it('S9 a task without run_mode inherits the interactive project ⇒ allowed with the confirm', () => {
    check(gate([task(project('p9', 'interactive'), 's9', 'none', true)]), true, 0, null);
  });

  it('S10 --operator-uid: a mismatched owner refuses, the matching one allows', () => {
    const t = task(project('p10', 'interactive'), 's10', 'none', true);
    const uid = statSync(join(t, '.pr-confirm')).uid;
    check(gate([t, '--operator-uid', String(uid + 1)]), false, 1, 'interactive_unconfirmed');
    check(gate([t, '--operator-uid', String(uid)]), true, 0, null);
  });

  it('S11 the gate writes nothing: the confirm stays, no HALT appears, on the allow and the refuse path', () => {
    const allowT = task(project('p11', 'interactive'), 's11', 'none', true);
    const refuseT = task(project('p11b', 'autonomous'), 's11b', 'autonomous', true);
    const snapshot = (t: string) =>
      readdirSync(t)
        .sort()
        .map((name) => [name, readFileSync(join(t, name), 'utf8')]);
    const before = [snapshot(allowT), snapshot(refuseT)];
    assert.equal(gate([allowT]).code, 0);
    assert.equal(gate([refuseT]).code, 1);
    assert.deepEqual([snapshot(allowT), snapshot(refuseT)], before);
  });

  it('the project reader grammar: key initials in either case, value case and spaces ignored; a bad or missing line reads interactive', () => {
    const variants: [string, string][] = [
      ['**run mode:** Autonomous', 'autonomous'],
      ['**Run Mode:**   AUTO nomous ', 'autonomous'],
      ['**Run Mode:** sometimes', 'interactive'],
    ];
    variants.forEach(([line, mode], i) => {
      const p = join(tmp, `grammar${i}`);
      mkdirSync(p, { recursive: true });
      writeFileSync(join(p, 'project_state.md'), `# g\n${line}\n`);
      const r = gate([task(p, 's', 'none', true)]);
      assert.equal(r.json.mode, mode, line);
    });
    const none = gate([task(project('p-none', 'none'), 's', 'none', true)]);
    assert.equal(
      none.json.mode,
      'interactive',
      'no Run Mode line: the original reader defaults to interactive',
    );
    assert.equal(none.code, 0);
    // A directory named like the confirm is not a confirm (the original tests for a regular file).
    const dirConfirm = task(project('p-dir', 'interactive'), 's', 'none', false);
    mkdirSync(join(dirConfirm, '.pr-confirm'));
    check(gate([dirConfirm]), false, 1, 'interactive_unconfirmed');
  });
});
