// `wo obs-append` / `wo obs-report`: the NDJSON record, its defaults, the report's histograms,
// flags and text form; both read-only on work-order artifacts.
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { makeTask } from './fixture';

const append = (dir: string, wo: string, ...rest: string[]) => runCli(['wo', 'obs-append', dir, wo, ...rest]);
const report = (dir: string, ...rest: string[]) => runCli(['wo', 'obs-report', dir, ...rest]);

describe('wo obs-append / obs-report', () => {
  it('appends one record built from the sidecars, keys in order, and prints it', () => {
    const t = makeTask([{ n: 1 }]);
    writeFileSync(
      join(t.dir, 'wo-01.run.json'),
      JSON.stringify({
        attempts: 2,
        dispatched_at: 'd',
        checkpoint_before: 'a',
        checkpoint_after: 'b',
        override_used: false,
        build_returned: true,
        halted: false,
        halt_reason: null,
      }),
    );
    writeFileSync(
      join(t.dir, 'wo-01._review.json'),
      JSON.stringify({ gate_specific: { overall_verdict: 'pass' } }),
    );
    writeFileSync(
      join(t.dir, 'wo-01._critique.json'),
      JSON.stringify({ overall: 'concern', blocking: false, risk_tier: 'medium' }),
    );
    const r = append(t.dir, 'wo-01', '--disposition', 'done');
    assert.equal(r.code, 0);
    assert.deepEqual(Object.keys(r.json), [
      'schema_version',
      'wo_id',
      'recorded_at',
      'disposition',
      'attempts',
      'dispatched_at',
      'checkpoint_before',
      'checkpoint_after',
      'override_used',
      'build_returned',
      'halted',
      'halt_reason',
      'halt_marker_present',
      'review_verdict',
      'critique_overall',
      'critique_blocking',
      'critique_tier',
    ]);
    assert.equal(r.json.attempts, 2);
    assert.equal(r.json.override_used, false, 'a meaningful false is kept');
    assert.equal(r.json.critique_tier, 'medium');
    assert.equal(
      r.stderr,
      'wo-obs wo=wo-01 disposition=done attempts=2 review=pass critique=concern blocking=false\n',
    );
    assert.deepEqual(JSON.parse(readFileSync(join(t.dir, 'loop-obs.ndjson'), 'utf8')), r.json);
  });

  it('defaults: no sidecars ⇒ attempts 0, verdicts missing, override_used null; a garbage disposition is unknown', () => {
    const t = makeTask([{ n: 1 }]);
    writeFileSync(join(t.dir, 'wo-01.HALT'), '{}');
    const r = append(t.dir, 'wo-01', '--disposition', 'exploded');
    assert.equal(r.json.disposition, 'unknown');
    assert.equal(r.json.attempts, 0);
    assert.equal(r.json.override_used, null);
    assert.equal(r.json.review_verdict, 'missing');
    assert.equal(r.json.halt_marker_present, true);
  });

  it('usage: missing folder or id exits 2 with a best-effort record and no append', () => {
    const t = makeTask([]);
    const r = append(t.dir, '');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /wo-obs usage_error=missing_wo_id/);
    assert.equal(append('/nonexistent', 'wo-01').code, 2);
  });

  it('report: latest record per WO drives histograms; halt reasons span all; flags terminal and repeated rework', () => {
    const t = makeTask([]);
    const rec = (wo: string, disposition: string, attempts: number, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        wo_id: wo,
        disposition,
        attempts,
        review_verdict: 'fail',
        critique_overall: 'pass',
        halt_reason: null,
        ...extra,
      });
    writeFileSync(
      join(t.dir, 'loop-obs.ndjson'),
      [
        rec('wo-02', 'needs_rework', 1),
        rec('wo-02', 'needs_rework', 2),
        rec('wo-02', 'done', 3, { review_verdict: 'pass' }),
        rec('wo-01', 'terminal_halt', 3, { halt_reason: 'retry_cap_exhausted', halted: true }),
        '',
        'not json',
        '[1]',
        rec('wo-03', 'done', 1, { review_verdict: 'pass' }),
      ].join('\n') + '\n',
    );
    const r = report(t.dir);
    assert.equal(r.code, 0);
    assert.equal(r.json.records, 5);
    assert.equal(r.json.skipped_lines, 3);
    assert.equal(r.json.work_orders, 3);
    assert.deepEqual(r.json.dispositions, {
      done: 2,
      needs_rework: 0,
      terminal_halt: 1,
      terminal_escalated: 0,
      unknown: 0,
    });
    assert.deepEqual(r.json.halt_reasons, { retry_cap_exhausted: 1 });
    assert.deepEqual(r.json.review_verdicts, { fail: 1, pass: 2 });
    assert.deepEqual(r.json.per_wo[1], {
      wo_id: 'wo-02',
      last_disposition: 'done',
      attempts: 3,
      records: 3,
      ever_halted: false,
      rework_count: 2,
    });
    assert.deepEqual(r.json.flagged, [
      {
        wo_id: 'wo-01',
        reason: 'terminal',
        attempts: 3,
        rework_count: 0,
        last_disposition: 'terminal_halt',
        halt_reason: 'retry_cap_exhausted',
      },
      {
        wo_id: 'wo-02',
        reason: 'repeated_rework',
        attempts: 3,
        rework_count: 2,
        last_disposition: 'done',
        halt_reason: null,
      },
    ]);
    assert.equal(r.stderr, 'wo-obs-report wos=3 done=2 rework=0 terminal=1 flagged=2\n');
    assert.equal(report(t.dir, '--rework-threshold', '3').json.flagged.length, 1);
    const text = report(t.dir, '--format', 'text');
    assert.equal(
      text.stdout,
      [
        'wo-obs-report: 5 records, 3 work-orders (skipped 3)',
        'dispositions: done=2 needs_rework=0 terminal_halt=1 terminal_escalated=0 unknown=0',
        'Flagged WOs (2):',
        '  wo-01  terminal  rework=0 attempts=3 last=terminal_halt halt_reason=retry_cap_exhausted',
        '  wo-02  repeated_rework  rework=2 attempts=3 last=done',
        'top halt reasons: retry_cap_exhausted=1',
        '',
      ].join('\n'),
    );
  });

  it('report: no log is an empty report; a missing folder exits 2; append then report round-trips', () => {
    const t = makeTask([{ n: 1 }]);
    const empty = report(t.dir);
    assert.equal(empty.json.records, 0);
    assert.deepEqual(empty.json.flagged, []);
    assert.deepEqual(report('/nonexistent').json, {
      schema_version: '1.0',
      error: 'work_orders_dir_missing',
    });
    append(t.dir, 'wo-01', '--disposition', 'needs_rework');
    appendFileSync(join(t.dir, 'loop-obs.ndjson'), '');
    append(t.dir, 'wo-01', '--disposition', 'needs_rework');
    assert.equal(report(t.dir).json.flagged[0].reason, 'repeated_rework');
  });
});
