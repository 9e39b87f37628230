// `wo run-state`: the retry-cap sidecar, ported from the original's spec T1–T18, plus our
// documented departures (halted sidecar refused, collect merges only given fields, no-change
// recorded explicitly).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempRoot } from '../helpers/cli';

function sidecar(name = 'wo-01'): string {
  const dir = tempRoot('wo-rs-');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.run.json`);
}

function seed(path: string, attempts: unknown, extra: Record<string, unknown> = {}): void {
  writeFileSync(
    path,
    JSON.stringify({
      wo: 'wo-01',
      attempts,
      checkpoint_before: 'seed-sha',
      dispatched_at: '2026-01-01T00:00:00Z',
      halted: false,
      halt_reason: null,
      override_used: null,
      build_returned: null,
      checkpoint_after: null,
      ...extra,
    }) + '\n',
  );
}

const rs = (...args: string[]) => runCli(['wo', 'run-state', ...args]);

describe('wo run-state (the retry cap)', () => {
  it('T1 dispatch with no sidecar: attempt 1, halted false, wo from the file name, file written', () => {
    const path = sidecar();
    const r = rs('dispatch', path, '--checkpoint-before', 'abc123');
    assert.equal(r.code, 0);
    assert.equal(r.json.attempts, 1);
    assert.equal(r.json.halted, false);
    assert.equal(r.json.checkpoint_before, 'abc123');
    assert.equal(r.json.wo, 'wo-01');
    assert.match(r.json.dispatched_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(Object.keys(r.json), [
      'wo',
      'attempts',
      'checkpoint_before',
      'dispatched_at',
      'halted',
      'halt_reason',
      'override_used',
      'build_returned',
      'checkpoint_after',
      'cap',
    ]);
    assert.equal(r.json.cap, 3, 'the cap the dispatch ran under (the default)');
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), r.json);
    assert.equal(r.stderr, 'wo-run-state dispatch ok wo=wo-01 attempts=1\n');
  });

  it('T2 cap 3, prior 2 → attempt 3 is allowed', () => {
    const path = sidecar();
    seed(path, 2);
    const r = rs('dispatch', path, '--checkpoint-before', 'sha2', '--cap', '3');
    assert.equal(r.code, 0);
    assert.equal(r.json.attempts, 3);
    assert.equal(r.json.cap, 3);
  });

  it('T3/T11 prior ≥ cap (explicit and default 3) halts without touching the file', () => {
    for (const capArgs of [['--cap', '3'], []]) {
      const path = sidecar();
      seed(path, 3);
      const before = readFileSync(path, 'utf8');
      const r = rs('dispatch', path, '--checkpoint-before', 'sha3', ...capArgs);
      assert.equal(r.code, 1);
      assert.deepEqual(r.json, { ok: false, halt: true, reason: 'retry_cap_exhausted', attempts: 3 });
      assert.equal(readFileSync(path, 'utf8'), before);
      assert.equal(r.stderr, 'wo-run-state dispatch halt wo=wo-01 attempts=3 cap=3\n');
    }
  });

  it('T4 a crash re-dispatch counts (prior 2 → 3, never reset)', () => {
    const path = sidecar();
    seed(path, 2);
    assert.equal(rs('dispatch', path, '--checkpoint-before', 'sha4').json.attempts, 3);
  });

  it('T5 collect sets the handle fields and keeps attempts', () => {
    const path = sidecar();
    seed(path, 1);
    const r = rs(
      'collect',
      path,
      '--override-used',
      'true',
      '--halt-reason',
      'null',
      '--build-returned',
      'false',
      '--checkpoint-after',
      'sha5after',
    );
    assert.equal(r.code, 0);
    assert.equal(r.json.attempts, 1);
    assert.equal(r.json.override_used, true);
    assert.equal(r.json.halt_reason, null);
    assert.equal(r.json.build_returned, false);
    assert.equal(r.json.checkpoint_after, 'sha5after');
    assert.equal(r.json.produced_changes, true);
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), r.json);
  });

  it('T6/T7 read of an absent or malformed sidecar fails closed (missing_run_state, exit 1)', () => {
    const absent = sidecar();
    let r = rs('read', absent);
    assert.equal(r.code, 1);
    assert.deepEqual(r.json, { ok: false, reason: 'missing_run_state' });
    assert.equal(r.stderr, 'wo-run-state read absent wo=wo-01\n');
    const bad = sidecar();
    writeFileSync(bad, '{ bad json\n');
    r = rs('read', bad);
    assert.equal(r.code, 1);
    assert.equal(r.json.reason, 'missing_run_state');
    const arr = sidecar();
    writeFileSync(arr, '[1,2]\n');
    r = rs('read', arr);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'wo-run-state read non-object wo=wo-01\n');
  });

  it('T8 read of a valid sidecar echoes it', () => {
    const path = sidecar();
    seed(path, 1);
    const r = rs('read', path);
    assert.equal(r.code, 0);
    assert.equal(r.json.wo, 'wo-01');
    assert.equal(r.json.attempts, 1);
  });

  it('T9 halt sets halted and the reason, on disk too', () => {
    const path = sidecar();
    seed(path, 1);
    const r = rs('halt', path, '--reason', 'loop_kill_switch');
    assert.equal(r.code, 0);
    assert.equal(r.json.halted, true);
    assert.equal(r.json.halt_reason, 'loop_kill_switch');
    assert.equal(JSON.parse(readFileSync(path, 'utf8')).halted, true);
    assert.equal(r.stderr, 'wo-run-state halt ok wo=wo-01 reason=loop_kill_switch\n');
  });

  it('T10 a checkpoint with shell metacharacters and a newline is stored as data', () => {
    const path = sidecar();
    const meta = 'a\nb; rm -rf ~';
    const r = rs('dispatch', path, '--checkpoint-before', meta);
    assert.equal(r.code, 0);
    assert.equal(r.json.checkpoint_before, meta);
  });

  it('T12 writes are atomic: no temporary file is left beside the sidecar', () => {
    const path = sidecar();
    rs('dispatch', path, '--checkpoint-before', 'x');
    rs('collect', path, '--checkpoint-after', 'y');
    rs('halt', path, '--reason', 'r');
    const dir = join(path, '..');
    assert.deepEqual(readdirSync(dir), ['wo-01.run.json']);
  });

  it('T13–T16 a corrupt sidecar (bad JSON, float, string, negative, missing attempts) halts run_state_corrupt, no write', () => {
    for (const body of [
      '{ this is : not json\n',
      '{"attempts":2.9}\n',
      '{"attempts":"5 "}\n',
      '{"attempts":-1}\n',
      '{"attempts":null}\n',
      '{}\n',
      '[]\n',
    ]) {
      const path = sidecar();
      writeFileSync(path, body);
      const r = rs('dispatch', path, '--checkpoint-before', 'sha');
      assert.equal(r.code, 1, body);
      assert.deepEqual(r.json, { ok: false, halt: true, reason: 'run_state_corrupt', attempts: null }, body);
      assert.equal(readFileSync(path, 'utf8'), body);
      assert.equal(r.stderr, 'wo-run-state dispatch corrupt wo=wo-01\n');
    }
  });

  it('T17 --cap abc is invalid_cap (the cap check never silently skips)', () => {
    const path = sidecar();
    seed(path, 1);
    const r = rs('dispatch', path, '--checkpoint-before', 'sha17', '--cap', 'abc');
    assert.equal(r.code, 1);
    assert.deepEqual(r.json, { ok: false, reason: 'invalid_cap' });
    assert.equal(r.stderr, 'wo-run-state dispatch invalid_cap wo=wo-01 cap=abc\n');
    assert.equal(JSON.parse(readFileSync(path, 'utf8')).attempts, 1);
  });

  it('T18 the first-dispatch path stays intact; cap 0 allows no build at all', () => {
    const path = sidecar();
    assert.equal(rs('dispatch', path, '--checkpoint-before', 'sha18').json.attempts, 1);
    const zero = sidecar();
    const r = rs('dispatch', zero, '--checkpoint-before', 'x', '--cap', '0');
    assert.equal(r.code, 1);
    assert.equal(r.json.reason, 'retry_cap_exhausted');
    assert.equal(existsSync(zero), false);
  });

  it('departure: dispatch refuses a sidecar already marked halted (run_state_halted), no write', () => {
    const path = sidecar();
    seed(path, 1, { halted: true, halt_reason: 'critique_critical' });
    const before = readFileSync(path, 'utf8');
    const r = rs('dispatch', path, '--checkpoint-before', 'x');
    assert.equal(r.code, 1);
    assert.deepEqual(r.json, { ok: false, halt: true, reason: 'run_state_halted', attempts: 1 });
    assert.equal(readFileSync(path, 'utf8'), before);
  });

  it('departure: collect sets only the fields it is given; checkpoint-after null records produced_changes false', () => {
    const path = sidecar();
    seed(path, 2, { override_used: true, build_returned: true, unknown_key: 'kept' });
    const r = rs('collect', path, '--checkpoint-after', 'null');
    assert.equal(r.code, 0);
    assert.equal(r.json.override_used, true);
    assert.equal(r.json.build_returned, true);
    assert.equal(r.json.checkpoint_after, null);
    assert.equal(r.json.produced_changes, false);
    assert.equal(r.json.unknown_key, 'kept');
    assert.equal(r.json.attempts, 2);
  });

  it('collect refuses an unreadable boolean (exit 2) and a missing sidecar (exit 1), never writing', () => {
    const path = sidecar();
    seed(path, 1);
    const before = readFileSync(path, 'utf8');
    const r = rs('collect', path, '--override-used', 'TRUE');
    assert.equal(r.code, 2);
    assert.deepEqual(r.json, {
      ok: false,
      reason: 'bool_unreadable',
      flag: '--override-used',
      value: 'TRUE',
    });
    assert.equal(readFileSync(path, 'utf8'), before);
    const missing = rs('collect', sidecar(), '--build-returned', 'true');
    assert.equal(missing.code, 1);
    assert.equal(missing.json.reason, 'missing_run_state');
    assert.equal(rs('halt', sidecar(), '--reason', 'x').code, 1);
  });

  it('usage: a missing mode or path exits 2; an unknown mode is unknown_mode:<m>', () => {
    assert.equal(rs().code, 2);
    assert.equal(rs('dispatch').code, 2);
    const r = rs('explode', sidecar());
    assert.equal(r.code, 2);
    assert.deepEqual(r.json, { ok: false, reason: 'unknown_mode:explode' });
  });
});
