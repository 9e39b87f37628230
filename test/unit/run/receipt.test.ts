import assert from 'node:assert/strict';
import {
  buildReceipt,
  excerpt,
  validateFinalReceipt,
  type FinalReceipt,
} from '../../../src/engine/run/receipt';
import { STOP_REASONS } from '../../../src/engine/run/stop-rules';

function passing(): FinalReceipt {
  return buildReceipt({
    runId: '20260101T000000Z-x',
    objective: 'x',
    terminal: {
      final_verdict: 'PASS',
      stop_reason: 'CODE_REVIEWER_PASS',
      reviewer: { verdict: 'PASS', edited_files: false, findings: [] },
    },
    attemptsUsed: 1,
    maxAttempts: 3,
    allowedGlobs: ['src/**'],
    changedFiles: ['src/a.ts'],
    checks: [
      {
        command: 'true',
        returncode: 0,
        stdout: 'a',
        stderr: 'b',
        stdout_excerpt: '',
        stderr_excerpt: '',
        timed_out: false,
      },
    ],
    runDir: '.loop/runs/20260101T000000Z-x',
    finalDiff: '.loop/runs/20260101T000000Z-x/attempts/01/diff.patch',
  });
}

const withChanges = (patch: Record<string, unknown>) =>
  ({ ...passing(), ...patch }) as Record<string, unknown>;

describe('run: receipts and the receipt validator', () => {
  it('a built receipt has the twelve keys, sorted, and validates', () => {
    const r = passing();
    assert.deepEqual(Object.keys(r), [...Object.keys(r)].sort());
    assert.equal(Object.keys(r).length, 12);
    assert.deepEqual(validateFinalReceipt(r as unknown as Record<string, unknown>), []);
  });

  it('the enum is the validator’s nine reasons', () => {
    assert.deepEqual([...STOP_REASONS].sort(), [
      'AGENT_FAILED',
      'CHECK_FAILED',
      'CODE_REVIEWER_BLOCKED',
      'CODE_REVIEWER_PASS',
      'DISALLOWED_FILE_CHANGE',
      'INVALID_REVIEWER_OUTPUT',
      'MAX_ATTEMPTS',
      'REVIEWER_EDITED_FILES',
      'TIMEOUT',
    ]);
  });

  it('refuses PASS with a failing check, with no check, edited, or with another reason', () => {
    const r = passing();
    const failing = withChanges({ checks: [{ ...r.checks[0], returncode: 1 }] });
    assert.ok(
      validateFinalReceipt(failing).includes(
        'receipt.final_verdict: PASS requires at least one check and all checks returncode 0',
      ),
    );
    assert.ok(
      validateFinalReceipt(withChanges({ checks: [] })).some((e) => e.includes('at least one check')),
    );
    assert.ok(
      validateFinalReceipt(
        withChanges({ reviewer: { verdict: 'PASS', edited_files: true, findings: [] } }),
      ).includes('receipt.final_verdict: PASS requires reviewer.edited_files false'),
    );
    assert.ok(
      validateFinalReceipt(withChanges({ stop_reason: 'MAX_ATTEMPTS' })).includes(
        'receipt.stop_reason: PASS requires CODE_REVIEWER_PASS',
      ),
    );
    assert.ok(
      validateFinalReceipt(withChanges({ final_verdict: 'NEEDS_CHANGES', stop_reason: 'TIMEOUT' })).includes(
        'receipt.stop_reason: NEEDS_CHANGES requires MAX_ATTEMPTS',
      ),
    );
    assert.ok(
      validateFinalReceipt(withChanges({ final_verdict: 'BLOCKED' })).includes(
        'receipt.stop_reason: BLOCKED cannot use CODE_REVIEWER_PASS',
      ),
    );
  });

  it('booleans are not integers (where Python would let True pass)', () => {
    const errors = validateFinalReceipt(withChanges({ attempts_used: true, max_attempts: false }));
    assert.ok(errors.includes('receipt.attempts_used: expected non-negative integer'));
    assert.ok(errors.includes('receipt.max_attempts: expected integer >= 1'));
    const check = { ...passing().checks[0], returncode: false };
    assert.ok(
      validateFinalReceipt(withChanges({ checks: [check] })).includes(
        'receipt.checks[0].returncode: expected integer',
      ),
    );
  });

  it('collects every error: missing keys, types, unsafe paths, scope', () => {
    const errors = validateFinalReceipt({
      schema: 'loop.final_receipt.v1',
      changed_files: ['../x', '/abs', 'other/y'],
      allowed_globs: ['src/**'],
      stop_reason: 'CODE_REVIEWER_BLOCKED',
      artifacts: { run_dir: '/tmp/x', final_diff: '' },
    });
    for (const expected of [
      "receipt: missing required key 'run_id'",
      'receipt.run_id: expected non-empty string',
      "receipt.final_verdict: must be one of ['BLOCKED', 'NEEDS_CHANGES', 'PASS']",
      'receipt.changed_files: "../x" is outside allowed_globs',
      'receipt.changed_files: "/abs" is outside allowed_globs',
      'receipt.changed_files: "other/y" is outside allowed_globs',
      'receipt.checks: expected list',
      'receipt.reviewer: expected object',
      'receipt.artifacts.run_dir: expected safe relative path',
    ]) {
      assert.ok(errors.includes(expected), `${expected}\n in ${errors.join('\n')}`);
    }
  });

  it('scope is not checked under DISALLOWED_FILE_CHANGE; attempts_used ≤ max_attempts', () => {
    const blocked = withChanges({
      final_verdict: 'BLOCKED',
      stop_reason: 'DISALLOWED_FILE_CHANGE',
      changed_files: ['outside.txt'],
      reviewer: { verdict: 'BLOCKED', edited_files: false, findings: ['disallowed file: outside.txt'] },
    });
    assert.deepEqual(validateFinalReceipt(blocked), []);
    assert.ok(
      validateFinalReceipt(withChanges({ attempts_used: 4 })).includes(
        'receipt.attempts_used: must be <= max_attempts',
      ),
    );
  });

  it('excerpts keep the first 2000 characters (code points)', () => {
    assert.equal(excerpt('a'.repeat(2500)).length, 2000);
    assert.equal(Array.from(excerpt('😀'.repeat(2100))).length, 2000);
  });
});
