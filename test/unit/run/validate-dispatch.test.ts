// `loop-ledger validate` reads FILE once and dispatches on its text, so a receipt or a
// loop-engineering JSON given through a pipe, `-`, process substitution or a named FIFO gets its
// own rules (it used to go to the work-loop validator); and the older receipt format (no
// `schema`) is recognised and gets the original validator's older rules. All through the CLI.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { snakeKey } from '../../../src/engine/engineering/fields';
import { CLI, childEnv, runCli, sampleContract, tempRoot, writeJson } from '../helpers/cli';
import { VALID_FIELDS } from '../engineering/helpers';

function bash(script: string, cwd: string): SpawnSyncReturns<string> {
  return spawnSync('bash', ['-c', script], {
    cwd,
    env: childEnv({ CLI: `${process.execPath} ${CLI}` }),
    encoding: 'utf8',
    timeout: 30_000,
  });
}

const RUN_DIR = '.loop/runs/20260101T000000Z-parse';

/** A valid `loop.final_receipt.v1` receipt. */
function v1Receipt(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    allowed_globs: ['src/**'],
    artifacts: { final_diff: `${RUN_DIR}/attempts/01/diff.patch`, run_dir: RUN_DIR },
    attempts_used: 1,
    changed_files: ['src/a.ts'],
    checks: [{ command: 'npm test', returncode: 0 }],
    final_verdict: 'PASS',
    max_attempts: 3,
    objective: 'Fix a',
    reviewer: { edited_files: false, findings: [], verdict: 'PASS' },
    run_id: '20260101T000000Z-parse',
    schema: 'loop.final_receipt.v1',
    stop_reason: 'CODE_REVIEWER_PASS',
    ...overrides,
  };
}

/** A valid receipt in the original harness's older format: no `schema`, per-attempt receipts. */
function legacyReceipt(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const inAttempt = (name: string) => `${RUN_DIR}/attempts/01/${name}`;
  return {
    loop_id: '20260101-parse',
    objective: 'Implement parseDuration',
    run_dir: RUN_DIR,
    max_attempts: 3,
    attempts_used: 1,
    allowed_scope: { include: ['src/time/**', 'tests/**'], exclude: ['src/time/vendor/**'] },
    agents: { explorer: 'explorer', coder: 'coder', code_reviewer: 'code-reviewer' },
    final_verdict: 'PASS',
    stop_reason: 'REVIEWER_PASS',
    explorer_receipt: {
      agent: 'explorer',
      mode: 'read_only',
      objective: 'Implement parseDuration',
      target_files: ['src/time/parse.py'],
      test_files: ['tests/test_parse.py'],
      risks: [],
      recommended_plan: ['add the parser', 'add a test'],
    },
    attempts: [
      {
        attempt: 1,
        artifact_paths: {
          changed_files: inAttempt('changed-files.txt'),
          diff: inAttempt('diff.patch'),
          tests_log: inAttempt('tests.log'),
          coder_receipt: inAttempt('coder-receipt.json'),
          code_reviewer_receipt: inAttempt('code-reviewer-receipt.json'),
        },
        coder_receipt: {
          agent: 'coder',
          attempt: 1,
          changed_files: ['src/time/parse.py', 'tests/test_parse.py'],
          tests_run: ['python -m pytest tests'],
          assumptions: [],
          summary: 'parser and test',
        },
        code_reviewer_receipt: {
          agent: 'code-reviewer',
          attempt: 1,
          mode: 'fresh_read_only',
          verdict: 'PASS',
          findings: [],
          required_fixes: [],
          tests_checked: ['python -m pytest tests'],
          edited_files: [],
        },
      },
    ],
    final_changed_files: ['src/time/parse.py', 'tests/test_parse.py'],
    final_tests_run: ['python -m pytest tests'],
    remaining_risks: [],
    ...overrides,
  };
}

function engineeringJson(): Record<string, unknown> {
  const body = Object.fromEntries(Object.entries(VALID_FIELDS).map(([k, v]) => [snakeKey(k), v]));
  return { kind: 'loop-engineering', ...body, max_iterations: 4 };
}

/** `validate FIFO` with a writer that opens the FIFO a moment after the CLI started. */
async function validateFifo(
  root: string,
  name: string,
  text: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const fifo = join(root, name);
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  const child = spawn(process.execPath, [CLI, 'validate', fifo], { env: childEnv() });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  await new Promise((resolve) => setTimeout(resolve, 200));
  const fd = openSync(fifo, 'w');
  writeSync(fd, text);
  closeSync(fd);
  return { code: await closed, stdout, stderr };
}

describe('validate: one read, then the validator the text calls for', function () {
  this.timeout(60_000);
  const root = tempRoot('validate-dispatch-');
  const v1 = writeJson(join(root, 'receipt.json'), v1Receipt());
  const v1Bad = writeJson(join(root, 'receipt-bad.json'), v1Receipt({ checks: [] }));
  const legacy = writeJson(join(root, 'legacy.json'), legacyReceipt());
  const engineering = writeJson(join(root, 'eng.json'), engineeringJson());

  it('a v1 receipt through a pipe, `-`, process substitution and a FIFO gets the receipt rules', async () => {
    for (const script of [
      'cat receipt.json | $CLI validate /dev/stdin',
      'cat receipt.json | $CLI validate -',
      '$CLI validate <(cat receipt.json)',
      '$CLI validate - < receipt.json',
    ]) {
      const r = bash(script, root);
      assert.equal(r.status, 0, `${script}: ${r.stderr}`);
      assert.equal(r.stdout, 'LOOP RECEIPT VALID: PASS after 1 attempt(s)\n', script);
    }
    const bad = bash('cat receipt-bad.json | $CLI validate /dev/stdin', root);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /^\/dev\/stdin: LOOP RECEIPT INVALID\n/);
    assert.match(bad.stderr, /- receipt\.final_verdict: PASS requires at least one check/);
    const fifo = await validateFifo(root, 'receipt.fifo', JSON.stringify(v1Receipt()));
    assert.equal(fifo.code, 0, fifo.stderr);
    assert.equal(fifo.stdout, 'LOOP RECEIPT VALID: PASS after 1 attempt(s)\n');
  });

  it('a loop-engineering JSON through a pipe and a FIFO gets the engineering rules (0 valid, 1 invalid)', async () => {
    const piped = bash('cat eng.json | $CLI validate /dev/stdin', root);
    assert.equal(piped.status, 0, piped.stderr);
    assert.match(piped.stdout, /^PASS loop contract\n- fields: \d+\n- mode: goal\n/);
    const invalid = JSON.stringify({ ...engineeringJson(), verifier: 'self' });
    const fifo = await validateFifo(root, 'eng.fifo', invalid);
    assert.equal(fifo.code, 1, fifo.stderr);
    assert.equal(fifo.stdout, 'FAIL loop contract\n- verifier cannot be the builder alone\n');
    assert.match(fifo.stderr, /eng\.fifo:\d+: verifier cannot be the builder alone \[self-verifier\]/);
  });

  it('the same files as regular files give the same answers; a contract still gets the contract rules', () => {
    assert.equal(runCli(['validate', v1]).stdout, 'LOOP RECEIPT VALID: PASS after 1 attempt(s)\n');
    assert.equal(runCli(['validate', v1Bad]).code, 1);
    assert.equal(runCli(['validate', engineering]).code, 0);
    const contract = writeJson(join(root, 'c.json'), sampleContract());
    const piped = bash('cat c.json | $CLI validate -', root);
    assert.equal(piped.status, 0, piped.stderr);
    assert.match(piped.stdout, /^-: valid contract \(2 rubric dimension\(s\)\)/);
    assert.equal(runCli(['validate', '--json', contract]).json.valid, true);
  });

  it('a non-receipt over the contract cap is refused as before, by size, even through a pipe (exit 2)', () => {
    const big = JSON.stringify({ ...sampleContract(), note: 'x'.repeat(1_100_000) });
    const file = writeJson(join(root, 'big.json'), JSON.parse(big));
    const regular = runCli(['validate', file]);
    assert.equal(regular.code, 2);
    assert.match(regular.stderr, /big\.json: contract file is \d+ bytes, over the 1048576-byte limit/);
    const piped = bash('cat big.json | $CLI validate /dev/stdin', root);
    assert.equal(piped.status, 2);
    assert.match(piped.stderr, /\/dev\/stdin: contract file is over the 1048576-byte limit/);
    // A receipt may be larger (its checks carry excerpts): it still gets the receipt rules.
    const bigReceipt = writeJson(
      join(root, 'big-receipt.json'),
      v1Receipt({ objective: 'y'.repeat(1_100_000) }),
    );
    assert.equal(runCli(['validate', bigReceipt]).code, 0);
  });

  describe('the older receipt format (no schema)', () => {
    const check = (data: Record<string, unknown>) =>
      runCli(['validate', writeJson(join(tempRoot('legacy-'), 'r.json'), data)]);

    it('a valid one passes: LOOP RECEIPT VALID, exit 0, through a file and a pipe', () => {
      const r = runCli(['validate', '--json', legacy]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json.kind, 'loop-receipt (older format, no schema)');
      assert.equal(r.json.valid, true);
      assert.equal(runCli(['validate', legacy]).stdout, 'LOOP RECEIPT VALID: PASS after 1 attempt(s)\n');
      const piped = bash('cat legacy.json | $CLI validate /dev/stdin', root);
      assert.equal(piped.status, 0, piped.stderr);
      // A BLOCKED receipt with no attempts is valid in that format too.
      const blocked = check(
        legacyReceipt({
          final_verdict: 'BLOCKED',
          stop_reason: 'SCOPE_BLOCKED',
          attempts: [],
          attempts_used: 0,
          final_changed_files: [],
        }),
      );
      assert.equal(blocked.code, 0, blocked.stderr);
    });

    it('its own rules, collected: scope, reviewer read-only, PASS needs REVIEWER_PASS, stop vocabulary', () => {
      const base = legacyReceipt();
      const attempt = (base.attempts as Record<string, Record<string, unknown>>[])[0]!;
      const r = check(
        legacyReceipt({
          stop_reason: 'CODE_REVIEWER_PASS',
          final_changed_files: ['src/time/parse.py', 'src/time/vendor/lib.py', '../escape.py'],
          attempts: [
            {
              ...attempt,
              code_reviewer_receipt: {
                ...attempt.code_reviewer_receipt,
                edited_files: ['src/time/parse.py'],
              },
            },
          ],
        }),
      );
      assert.equal(r.code, 1);
      const lines = r.stderr.trim().split('\n');
      assert.match(lines[0]!, /r\.json: LOOP RECEIPT INVALID$/);
      assert.deepEqual(lines.slice(1), [
        "- receipt.stop_reason: must be one of ['HUMAN_DECISION', 'MAX_ATTEMPTS', 'REVIEWER_BLOCKED', 'REVIEWER_PASS', 'SCHEDULE_REGISTERED', 'SCOPE_BLOCKED']",
        "- receipt.attempts[0].code_reviewer_receipt.edited_files: reviewer must be read-only; got ['src/time/parse.py']",
        '- receipt.stop_reason: PASS requires REVIEWER_PASS',
        "- receipt.final_changed_files: 'src/time/vendor/lib.py' is outside allowed_scope",
        "- receipt.final_changed_files: '../escape.py' is outside allowed_scope",
      ]);
    });

    it('types: a missing key is named, booleans are not integers, a PASS loop does not continue', () => {
      const base = legacyReceipt();
      const attempt = (base.attempts as Record<string, unknown>[])[0]!;
      const first = attempt as Record<string, Record<string, unknown>>;
      const second = {
        ...first,
        attempt: 2,
        coder_receipt: { ...first.coder_receipt, attempt: 2 },
        code_reviewer_receipt: { ...first.code_reviewer_receipt, attempt: 2 },
      };
      const { remaining_risks: _dropped, ...withoutRisks } = legacyReceipt({
        max_attempts: true,
        agents: { explorer: 'explorer', code_reviewer: 'code-reviewer' },
        attempts: [attempt, second],
        attempts_used: 2,
      });
      void _dropped;
      const r = check(withoutRisks);
      assert.equal(r.code, 1);
      assert.deepEqual(r.stderr.trim().split('\n').slice(1), [
        "- receipt: missing required key 'remaining_risks'",
        '- receipt.max_attempts: expected int, got bool',
        "- receipt: missing required key 'remaining_risks'",
        "- receipt.agents.coder: expected 'coder', got None",
        '- receipt.attempts: loop continued after code-reviewer PASS',
      ]);
    });

    it('NEEDS_CHANGES and BLOCKED rules, and artifact paths under run_dir', () => {
      const base = legacyReceipt();
      const attempt = (base.attempts as Record<string, Record<string, unknown>>[])[0]!;
      const r = check(
        legacyReceipt({
          final_verdict: 'NEEDS_CHANGES',
          stop_reason: 'REVIEWER_BLOCKED',
          run_dir: 'elsewhere/run',
          attempts: [
            {
              ...attempt,
              artifact_paths: { ...attempt.artifact_paths, diff: '/abs/diff.patch' },
              code_reviewer_receipt: { ...attempt.code_reviewer_receipt, verdict: 'NEEDS_CHANGES' },
            },
          ],
        }),
      );
      assert.equal(r.code, 1);
      const lines = r.stderr.trim().split('\n').slice(1);
      assert.ok(
        lines.includes('- receipt.run_dir: must be a safe relative path under .loop/runs/'),
        r.stderr,
      );
      assert.ok(lines.includes('- receipt.attempts[0].artifact_paths.diff: path must be safe and relative'));
      assert.ok(
        lines.includes(
          "- receipt.attempts[0].artifact_paths.changed_files: path must live under run_dir 'elsewhere/run'",
        ),
      );
      assert.ok(
        lines.includes(
          '- receipt.stop_reason: NEEDS_CHANGES normally requires MAX_ATTEMPTS, HUMAN_DECISION, or SCOPE_BLOCKED',
        ),
      );
      const blocked = check(legacyReceipt({ final_verdict: 'BLOCKED', stop_reason: 'MAX_ATTEMPTS' }));
      assert.ok(
        blocked.stderr.includes('- receipt.stop_reason: BLOCKED cannot use MAX_ATTEMPTS'),
        blocked.stderr,
      );
    });

    it('a contract is never taken for an older receipt, even with a receipt-like key', () => {
      const r = runCli(['validate', writeJson(join(root, 'c2.json'), { ...sampleContract(), loop_id: 'x' })]);
      assert.doesNotMatch(r.stderr, /LOOP RECEIPT/);
      assert.match(r.stderr, /loop_id: not one of the twelve contract fields/);
    });
  });
});
