import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ledgerPath,
  readLedger,
  runCli,
  sampleContract,
  tempRoot,
  writeJson,
  writeText,
} from '../helpers/cli';
import { loopWith } from './setup';

const STATUS_KEYS = [
  'baselines_measured',
  'baselines_total',
  'completed_actions',
  'critic_verdict',
  'decision',
  'epoch',
  'final_outcome',
  'iterations',
  'last_outcome',
  'last_timestamp',
  'limits',
  'quality_from',
  'rubric_verdict',
  'session',
  'spend',
  'stalls',
  'status',
  'weighted_total',
];

describe('cli: status', () => {
  it('an empty ledger: exit 4 with the payload, every quality key null, no last_outcome', () => {
    const loop = loopWith();
    const r = loop.cli('status', '--json');
    assert.equal(r.code, 4);
    assert.deepEqual(
      Object.keys(r.json),
      STATUS_KEYS.filter((k) => k !== 'last_outcome'),
    );
    assert.equal(r.json.iterations, 0);
    for (const k of [
      'rubric_verdict',
      'weighted_total',
      'critic_verdict',
      'decision',
      'quality_from',
      'last_timestamp',
    ]) {
      assert.equal(r.json[k], null, k);
    }
  });

  it('quality keys all come from the newest judged record, named by quality_from', () => {
    const loop = loopWith({ iteration_limit: 50 });
    loop.cli('iterate', '--outcome', 'continue', '--measure', 'hard-one=0', '--measure', 'soft-one=10');
    loop.cli('iterate', '--outcome', 'continue', '--decision', 'revert', '--state', 'x');
    loop.cli('iterate', '--outcome', 'continue', '--state', 'x');
    const r = loop.cli('status', '--json');
    assert.equal(r.code, 0);
    assert.deepEqual(Object.keys(r.json), STATUS_KEYS);
    assert.equal(r.json.quality_from, 2);
    assert.equal(r.json.rubric_verdict, null, 'the judged record was not scored');
    assert.equal(r.json.weighted_total, null);
    assert.equal(r.json.decision, 'revert');
    assert.equal(r.json.last_outcome, 'revise');
    assert.deepEqual(r.json.stalls, ['circular-state']);
    assert.equal(r.json.status, 'closed');
    assert.equal(r.json.final_outcome, 'revise');
    assert.equal(r.json.epoch, 1);
  });

  it('reads an original-format ledger under .claude/.runtime/work-loop/ (no version key, no epoch keys)', () => {
    const root = tempRoot();
    const original = {
      session: 'old',
      contract: sampleContract(),
      status: 'open',
      final_outcome: null,
      iterations: [
        {
          n: 1,
          reported_outcome: 'continue',
          outcome: 'continue',
          stall: null,
          error_signature: null,
          state_hash: 'aaaa',
          dependency_missing: null,
          actions: ['x'],
          baseline: null,
          measurements: null,
          evaluation: null,
          files_changed: [],
          commands_run: [],
          evidence_paths: [],
          critic_verdict: null,
          critic_next: null,
          critic_brief: null,
          decision: null,
          blocker: null,
          evidence: null,
          recommended_next: null,
          note: null,
        },
      ],
      completed_actions: ['x'],
      resumed: 0,
    };
    const legacy = writeJson(join(root, '.claude', '.runtime', 'work-loop', 'old.json'), original);
    const legacyText = readFileSync(legacy, 'utf8');
    const s = runCli(['status', '--root', root, '--session', 'old', '--json']);
    assert.equal(s.code, 0, s.stderr);
    assert.equal(s.json.epoch, 1);
    assert.equal(s.json.baselines_total, null);
    assert.equal(s.json.last_timestamp, null);
    const list = runCli(['list', '--root', root, '--json']);
    assert.equal(list.json.sessions[0].session, 'old');
    assert.equal(list.json.sessions[0].legacy, true);
    // A write goes to .loop/ledgers; the original file is never modified.
    const it = runCli([
      'iterate',
      '--root',
      root,
      '--session',
      'old',
      '--outcome',
      'continue',
      '--action',
      'y',
      '--json',
    ]);
    assert.equal(it.code, 0, it.stderr);
    assert.equal(it.json.n, 2);
    assert.equal(readFileSync(legacy, 'utf8'), legacyText);
    assert.equal(readLedger(root, 'old').schema_version, 1);
    assert.equal(
      runCli(['iterate', '--root', root, '--session', 'old', '--outcome', 'continue', '--action', 'x']).code,
      5,
    );
  });
});

describe('cli: resume', () => {
  it('re-enters a paused ledger; an open one is reported unchanged; other closed ones → 3', () => {
    const loop = loopWith();
    const open = loop.cli('resume', '--json');
    assert.equal(open.code, 0, 'an empty ledger resumes with exit 0');
    assert.deepEqual(Object.keys(open.json), [
      'completed_actions',
      'contract',
      'next_iteration',
      'resumed',
      'session',
      'status',
    ]);
    assert.equal(open.json.resumed, 0);
    loop.cli('iterate', '--outcome', 'pause', '--action', 'a1', '--note', 'checkpoint');
    const r = loop.cli('resume', '--json');
    assert.equal(r.code, 0);
    assert.equal(r.json.status, 'open');
    assert.equal(r.json.resumed, 1);
    assert.equal(r.json.next_iteration, 2);
    assert.deepEqual(r.json.completed_actions, ['a1']);
    const l = readLedger(loop.root, loop.session);
    assert.equal(l.final_outcome, null);
    assert.equal(l.close_note, 'checkpoint', 'close values stay');
    assert.equal(l.epoch, 1);
    assert.equal(loop.cli('resume', '--json').json.resumed, 1, 'resuming an open ledger does not bump');
    loop.cli('close', '--outcome', 'complete');
    const refused = loop.cli('resume');
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /ledger is closed/);
  });
});

describe('cli: close', () => {
  it('closes without a record; continue → 2; escalate needs three fields → 1; closed → 3', () => {
    const loop = loopWith();
    const before = readFileSync(ledgerPath(loop.root, loop.session), 'utf8');
    assert.equal(loop.cli('close', '--outcome', 'continue').code, 2);
    const esc = loop.cli('close', '--outcome', 'escalate', '--blocker', 'b');
    assert.equal(esc.code, 1);
    assert.match(esc.stderr, /--evidence/);
    assert.equal(readFileSync(ledgerPath(loop.root, loop.session), 'utf8'), before);
    const r = loop.cli('close', '--outcome', 'stop', '--note', 'abandoned', '--json');
    assert.equal(r.code, 0);
    assert.deepEqual(r.json, { final_outcome: 'stop', session: loop.session, status: 'closed' });
    const l = readLedger(loop.root, loop.session);
    assert.equal(l.iterations.length, 0);
    assert.equal(l.close_note, 'abandoned');
    // open and close describe one unchanged ledger with the same word.
    const c = loop.cli('close', '--outcome', 'stop');
    assert.equal(c.code, 3);
    assert.match(c.stderr, /sess-1: ledger is closed/);
  });
});

describe('cli: score', () => {
  it('28.0 pass exit 0; 90.0 fail exit 6 with the payload; works on a closed ledger; writes nothing', () => {
    const loop = loopWith();
    loop.cli('close', '--outcome', 'complete');
    const before = readFileSync(ledgerPath(loop.root, loop.session), 'utf8');
    const pass = loop.cli('score', '--measure', 'hard-one=0', '--measure', 'soft-one=10', '--json');
    assert.equal(pass.code, 0);
    assert.equal(pass.json.weighted_total, 28);
    assert.deepEqual(Object.keys(pass.json), [
      'dimensions',
      'hard_gate_failures',
      'verdict',
      'weighted_total',
    ]);
    const fail = loop.cli('score', '--measure', 'hard-one=5', '--measure', 'soft-one=100', '--json');
    assert.equal(fail.code, 6);
    assert.equal(fail.json.weighted_total, 90);
    assert.equal(fail.json.verdict, 'fail');
    assert.equal(loop.cli('score', '--measure', 'hard-one=5').code, 1);
    assert.equal(loop.cli('score').code, 1);
    assert.equal(readFileSync(ledgerPath(loop.root, loop.session), 'utf8'), before);
  });

  it('must_not_regress scores 100 or 0 and overshoot is capped at 100', () => {
    const rubric = [
      {
        dimension: 'guard',
        evidence_command: 'echo 0',
        baseline: 0,
        target: 0,
        weight: 1,
        failure_threshold: 0,
        direction: 'lower-is-better',
        hard_gate: true,
        must_not_regress: true,
      },
      {
        dimension: 'cov',
        evidence_command: 'echo 0',
        baseline: 50,
        target: 80,
        weight: 1,
        failure_threshold: 40,
        direction: 'higher-is-better',
        hard_gate: false,
      },
    ];
    const loop = loopWith({ quality_rubric: rubric });
    const ok = loop.cli('score', '--measure', 'guard=0', '--measure', 'cov=95', '--json');
    assert.deepEqual(
      ok.json.dimensions.map((d: { score: number }) => d.score),
      [100, 100],
    );
    const bad = loop.cli('score', '--measure', 'guard=1', '--measure', 'cov=30', '--json');
    assert.equal(bad.code, 6);
    assert.deepEqual(
      bad.json.dimensions.map((d: { score: number }) => d.score),
      [0, 0],
    );
    assert.equal(bad.json.dimensions[1].gate_failed, true, 'a soft dimension past its threshold is flagged');
    assert.deepEqual(bad.json.hard_gate_failures, ['guard']);
  });
});

describe('cli: validate and list', () => {
  it('validate: exit 0 valid, 1 with findings and JSON paths, 2 unreadable', () => {
    const root = tempRoot();
    const good = writeJson(join(root, 'good.json'), sampleContract());
    assert.equal(runCli(['validate', good, '--root', root]).code, 0);
    const rubric = (sampleContract().quality_rubric as Record<string, unknown>[]).map((d) => ({ ...d }));
    rubric[1]!.direction = 'lower-is-better';
    const bad = writeJson(join(root, 'bad.json'), sampleContract({ quality_rubric: rubric }));
    const r = runCli(['validate', bad, '--root', root, '--json']);
    assert.equal(r.code, 1);
    assert.equal(r.json.valid, false);
    assert.deepEqual(r.json.findings[0].path, ['quality_rubric', 1, 'direction']);
    assert.equal(r.json.findings[0].code, 'direction-disagrees');
    assert.equal(runCli(['validate', join(root, 'missing.json')]).code, 2);
    assert.equal(runCli(['validate', writeText(join(root, 'x.json'), '{')]).code, 1);
  });

  it('list: every session with status, epoch, iteration count, last outcome; a corrupt one is listed, not fatal', () => {
    const loop = loopWith();
    loop.cli('iterate', '--outcome', 'continue');
    writeText(ledgerPath(loop.root, 'broken'), 'not json');
    const r = runCli(['list', '--root', loop.root, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const byName = Object.fromEntries(r.json.sessions.map((s: { session: string }) => [s.session, s]));
    assert.equal(byName['sess-1'].status, 'open');
    assert.equal(byName['sess-1'].iterations, 1);
    assert.equal(byName['sess-1'].last_outcome, 'continue');
    assert.equal(byName['sess-1'].epoch, 1);
    assert.ok(byName.broken.error);
    assert.match(runCli(['list', '--root', loop.root]).stdout, /sess-1\topen/);
  });
});
