// `wo reconcile-table` (read-only, one row per work order) and the pure recovery rules it feeds:
// the crash-recovery disposition table, the three-way verdict and the ready queue.
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { disposition, type ReconcileRow } from '../../../src/engine/workorders/reconcile';
import { nextProcessable, processable, type QueueEntry } from '../../../src/engine/workorders/queue';
import { verdict } from '../../../src/engine/workorders/verdict';
import { CLI, childEnv, cliResultOf, runCli } from '../helpers/cli';
import { makeTask, woText } from './fixture';

const table = (dir: string) => runCli(['wo', 'reconcile-table', dir]);

function snapshot(dir: string): string {
  return readdirSync(dir)
    .sort()
    .map((n) => `${n}:${statSync(join(dir, n)).mtimeMs}:${readFileSync(join(dir, n), 'utf8')}`)
    .join('\n');
}

describe('wo reconcile-table', () => {
  it('a work order or sidecar that is a link to /dev/zero or a FIFO (a cloned repo can carry the link) reads as unreadable, never hangs', () => {
    const t = makeTask([{ n: 1 }]);
    symlinkSync('/dev/zero', join(t.dir, 'wo-02-zero.md'));
    execFileSync('mkfifo', [join(t.dir, 'wo-03-fifo.md')]);
    symlinkSync('/dev/zero', join(t.dir, 'wo-01.run.json'));
    const r = cliResultOf(
      spawnSync(process.execPath, [CLI, 'wo', 'reconcile-table', t.dir], {
        env: childEnv(),
        encoding: 'utf8',
        timeout: 15_000,
      }),
    );
    assert.notEqual(r.code, null, `killed after 15 s: ${r.stderr}`);
    const rows = r.json as { wo_id: string; has_run_state: boolean }[];
    assert.ok(Array.isArray(rows), r.stdout + r.stderr);
    assert.ok(
      rows.some((row) => row.wo_id === 'wo-01'),
      r.stdout,
    );
  });

  it('T1 a fresh work order: status from frontmatter, every flag false, verdicts missing', () => {
    const t = makeTask([{ n: 1 }]);
    const r = table(t.dir);
    assert.equal(r.code, 0);
    assert.deepEqual(r.json, [
      {
        wo_id: 'wo-01',
        status: 'ready',
        terminal: false,
        halted: false,
        halt_reason: null,
        checkpoint_before: null,
        checkpoint_after: null,
        has_run_state: false,
        has_review: false,
        review_verdict: 'missing',
        has_critique: false,
        critique_blocking: false,
        halt_marker_present: false,
      },
    ]);
    assert.equal(r.stderr, 'wo-reconcile-table wos=1 terminal=0 ready=1\n');
  });

  it('T2 terminal via the sidecar alone (halted true, no marker) — and the sidecar reason surfaces', () => {
    const t = makeTask([{ n: 1 }]);
    writeFileSync(
      join(t.dir, 'wo-01.run.json'),
      JSON.stringify({
        attempts: 3,
        halted: true,
        halt_reason: 'retry_cap_exhausted',
        checkpoint_before: 'aaa',
      }),
    );
    const [row] = table(t.dir).json;
    assert.equal(row.terminal, true);
    assert.equal(row.halted, true);
    assert.equal(row.halt_reason, 'retry_cap_exhausted');
    assert.equal(row.halt_marker_present, false);
    assert.equal(row.checkpoint_before, 'aaa');
  });

  it('T3 terminal via the marker alone; the marker reason beats the sidecar one', () => {
    const t = makeTask([{ n: 1 }]);
    writeFileSync(
      join(t.dir, 'wo-01.run.json'),
      JSON.stringify({ attempts: 1, halted: false, halt_reason: 'sidecar_reason' }),
    );
    writeFileSync(
      join(t.dir, 'wo-01.HALT'),
      JSON.stringify({ wo_id: 'wo-01', reason: 'critique_critical', at: 'x' }),
    );
    const r = table(t.dir);
    assert.equal(r.json[0].terminal, true);
    assert.equal(r.json[0].halt_reason, 'critique_critical');
    assert.equal(
      r.stderr,
      'wo-reconcile-table wos=1 terminal=1 ready=0\n',
      'a terminal ready WO is not counted ready',
    );
  });

  it('T4 an unreadable marker still makes the work order terminal (halt_reason from the sidecar, else null)', () => {
    const t = makeTask([{ n: 1 }]);
    writeFileSync(join(t.dir, 'wo-01.HALT'), 'not json');
    const [row] = table(t.dir).json;
    assert.equal(row.terminal, true);
    assert.equal(row.halt_reason, null);
  });

  it('T5 broken sidecars read as {}: no crash, has_* still reflect presence', () => {
    const t = makeTask([{ n: 1, status: 'in_progress' }]);
    writeFileSync(join(t.dir, 'wo-01.run.json'), '{broken');
    writeFileSync(join(t.dir, 'wo-01._review.json'), '[]');
    writeFileSync(join(t.dir, 'wo-01._critique.json'), '');
    const [row] = table(t.dir).json;
    assert.equal(row.has_run_state, true);
    assert.equal(row.has_review, true);
    assert.equal(row.review_verdict, 'missing');
    assert.equal(row.has_critique, true);
    assert.equal(row.critique_blocking, false);
    assert.equal(row.checkpoint_after, null);
  });

  it('T6 review verdict and critique blocking are read as scalars', () => {
    const t = makeTask([{ n: 1, status: 'in_progress' }]);
    writeFileSync(
      join(t.dir, 'wo-01._review.json'),
      JSON.stringify({ gate_specific: { overall_verdict: 'fail' } }),
    );
    writeFileSync(
      join(t.dir, 'wo-01._critique.json'),
      JSON.stringify({ blocking: true, overall: 'critical' }),
    );
    const [row] = table(t.dir).json;
    assert.equal(row.review_verdict, 'fail');
    assert.equal(row.critique_blocking, true);
  });

  it('T7 rows sorted by file name; a frontmatter id of the short form wins over the file name; status unknown when absent', () => {
    const t = makeTask([{ n: 2 }, { n: 1 }]);
    writeFileSync(join(t.dir, 'wo-03-x.md'), '---\nid: wo-7\ntitle: no status\n---\n');
    const rows = table(t.dir).json;
    assert.deepEqual(
      rows.map((r: ReconcileRow) => [r.wo_id, r.status]),
      [
        ['wo-01', 'ready'],
        ['wo-02', 'ready'],
        ['wo-7', 'unknown'],
      ],
    );
  });

  it('T8 sidecar files are never rows (only wo-*.md)', () => {
    const t = makeTask([{ n: 1 }]);
    writeFileSync(join(t.dir, 'wo-01.run.json'), '{"attempts":1}');
    writeFileSync(join(t.dir, 'notes.md'), '# not a work order');
    assert.equal(table(t.dir).json.length, 1);
  });

  it('T9 empty folder: [] and exit 0', () => {
    const t = makeTask([]);
    const r = table(t.dir);
    assert.equal(r.code, 0);
    assert.deepEqual(r.json, []);
    assert.equal(r.stderr, 'wo-reconcile-table wos=0 terminal=0 ready=0\n');
  });

  it('T10 missing argument or folder: exit 2 with {error}', () => {
    let r = table('');
    assert.equal(r.code, 2);
    r = runCli(['wo', 'reconcile-table']);
    assert.equal(r.code, 2);
    assert.deepEqual(r.json, { error: 'missing_work_orders_dir' });
    r = table('/nonexistent/wo');
    assert.deepEqual(r.json, { error: 'work_orders_dir_missing' });
    assert.equal(r.stderr, 'wo-reconcile-table error=work_orders_dir_missing\n');
  });

  it('T11 read-only: every file keeps its bytes and mtime', () => {
    const t = makeTask([
      { n: 1, status: 'in_progress' },
      { n: 2, blockedBy: [1] },
    ]);
    writeFileSync(join(t.dir, 'wo-01.run.json'), JSON.stringify({ attempts: 1, halted: true }));
    writeFileSync(join(t.dir, 'wo-01.HALT'), '{}');
    const before = snapshot(t.dir);
    table(t.dir);
    assert.equal(snapshot(t.dir), before);
  });

  it('T12 quoted status values are unquoted, as the line reader does', () => {
    const t = makeTask([]);
    writeFileSync(
      join(t.dir, 'wo-01-q.md'),
      woText({ n: 1 }).replace('status: ready', 'status: "needs_rework"'),
    );
    assert.equal(table(t.dir).json[0].status, 'needs_rework');
  });
});

function row(partial: Partial<ReconcileRow>): ReconcileRow {
  return {
    wo_id: 'wo-01',
    status: 'ready',
    terminal: false,
    halted: false,
    halt_reason: null,
    checkpoint_before: null,
    checkpoint_after: null,
    has_run_state: false,
    has_review: false,
    review_verdict: 'missing',
    has_critique: false,
    critique_blocking: false,
    halt_marker_present: false,
    ...partial,
  };
}

describe('engine: the recovery table, verdict and ready queue', () => {
  it('disposition: first match wins, terminal before status', () => {
    const cases: [Partial<ReconcileRow>, boolean, string][] = [
      [{ terminal: true, status: 'in_progress', checkpoint_after: 'x', has_review: true }, true, 'escalate'],
      [{ terminal: true, status: 'ready' }, true, 'escalate'],
      [{ status: 'done' }, true, 'skip'],
      [{ status: 'blocked' }, false, 'wait'],
      [{ status: 'blocked' }, true, 'dispatch'],
      [{ status: 'ready' }, true, 'dispatch'],
      [{ status: 'needs_rework', has_run_state: true }, true, 'dispatch'],
      [{ status: 'ready', has_run_state: true }, true, 'redispatch'],
      [{ status: 'in_progress', has_run_state: true }, true, 'reset'],
      [{ status: 'in_progress', has_run_state: true, checkpoint_after: 'abc' }, true, 'resume_review'],
      [{ status: 'in_progress', checkpoint_after: 'abc', has_review: true }, true, 'resume_critique'],
      [
        { status: 'in_progress', checkpoint_after: 'abc', has_review: true, has_critique: true },
        true,
        'rederive_verdict',
      ],
      [{ status: 'unknown' }, true, 'unknown_status'],
    ];
    for (const [partial, depsDone, expected] of cases)
      assert.equal(disposition(row(partial), depsDone), expected, JSON.stringify(partial));
    assert.equal(
      disposition(row({ status: 'in_progress', has_run_state: true }), true, true),
      'resume_review',
      'a collect that recorded no change is not a crash',
    );
  });

  it('verdict: marker or blocking critique is TERMINAL; pass + not blocking is CLEAN; else RETRYABLE; pass without critique is TERMINAL', () => {
    assert.deepEqual(verdict({ haltMarker: true, reviewVerdict: 'pass', critiqueBlocking: false }), {
      verdict: 'terminal',
      disposition: 'terminal_halt',
    });
    assert.equal(
      verdict({ haltMarker: false, reviewVerdict: 'fail', critiqueBlocking: true }).disposition,
      'terminal_escalated',
    );
    assert.equal(
      verdict({ haltMarker: false, reviewVerdict: 'pass', critiqueBlocking: false }).verdict,
      'clean',
    );
    assert.equal(
      verdict({ haltMarker: false, reviewVerdict: 'fail', critiqueBlocking: false }).verdict,
      'retryable',
    );
    assert.equal(
      verdict({ haltMarker: false, reviewVerdict: 'bypassed', critiqueBlocking: false }).verdict,
      'retryable',
    );
    assert.equal(
      verdict({ haltMarker: false, reviewVerdict: 'pass', critiqueBlocking: undefined }).verdict,
      'terminal',
    );
    assert.equal(
      verdict({ haltMarker: false, reviewVerdict: 'pass', critiqueBlocking: 'false' }).verdict,
      'terminal',
      'a string is not false',
    );
  });

  it('queue: never a terminal work order; blocked only with deps done; version order', () => {
    const entry = (fileName: string, partial: Partial<ReconcileRow>, depsDone = true): QueueEntry => ({
      fileName,
      row: row(partial),
      depsDone,
    });
    assert.equal(processable(entry('a', { status: 'ready', terminal: true })), false);
    assert.equal(processable(entry('a', { status: 'in_progress' })), false);
    assert.equal(processable(entry('a', { status: 'blocked' }, false)), false);
    assert.equal(processable(entry('a', { status: 'blocked' })), true);
    const next = nextProcessable([
      entry('wo-10-x.md', { status: 'ready' }),
      entry('wo-9-y.md', { status: 'ready' }),
      entry('wo-2-z.md', { status: 'done' }),
    ]);
    assert.equal(next?.fileName, 'wo-9-y.md');
  });
});
