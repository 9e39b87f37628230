import assert from 'node:assert/strict';
import {
  checksPassed,
  checksTerminal,
  coderTerminal,
  explorerTerminal,
  finishTerminal,
  maxAttemptsTerminal,
  parseReviewerResult,
  reviewDecision,
  scopeAfterChecksTerminal,
  type CheckFacts,
} from '../../../src/engine/run/stop-rules';

const ok: CheckFacts = { returncode: 0, timed_out: false };
const failing: CheckFacts = { returncode: 1, timed_out: false };
const timedOut: CheckFacts = { returncode: -125, timed_out: true };

describe('run: stop rules and their precedence', () => {
  it('explorer: exit code and edits (timeout over failure; an edit alone is AGENT_FAILED)', () => {
    assert.equal(explorerTerminal(0, false), null);
    const table: [number, boolean, string, string[]][] = [
      [-124, false, 'TIMEOUT', ['explorer timed out']],
      [127, false, 'AGENT_FAILED', ['explorer start failed']],
      [1, false, 'AGENT_FAILED', ['explorer failed']],
      [0, true, 'AGENT_FAILED', ['explorer edited files']],
      [1, true, 'AGENT_FAILED', ['explorer failed', 'explorer edited files']],
      [-124, true, 'TIMEOUT', ['explorer timed out', 'explorer edited files']],
    ];
    for (const [code, edited, reason, findings] of table) {
      const t = explorerTerminal(code, edited);
      assert.deepEqual(t, {
        final_verdict: 'BLOCKED',
        stop_reason: reason,
        reviewer: { verdict: 'BLOCKED', edited_files: false, findings },
      });
    }
  });

  it('coder: out of scope dominates its exit code, and keeps the failure finding', () => {
    assert.equal(coderTerminal(0, []), null);
    assert.equal(coderTerminal(0, ['x'])?.stop_reason, 'DISALLOWED_FILE_CHANGE');
    assert.deepEqual(coderTerminal(0, ['x'])?.reviewer.findings, []);
    assert.deepEqual(coderTerminal(1, ['x'])?.reviewer.findings, ['coder failed']);
    assert.deepEqual(coderTerminal(-124, ['x'])?.reviewer.findings, ['coder timed out']);
    assert.equal(coderTerminal(-124, [])?.stop_reason, 'TIMEOUT');
    assert.equal(coderTerminal(127, [])?.stop_reason, 'AGENT_FAILED');
    assert.deepEqual(coderTerminal(127, [])?.reviewer.findings, ['coder start failed']);
    assert.equal(coderTerminal(-9, [])?.stop_reason, 'AGENT_FAILED', 'a signal death is a failure');
  });

  it('checks: a timeout blocks; a failing check does not; out-of-scope side effects block', () => {
    assert.equal(checksTerminal([ok, failing]), null);
    assert.equal(checksTerminal([ok, timedOut])?.stop_reason, 'TIMEOUT');
    assert.deepEqual(checksTerminal([timedOut])?.reviewer.findings, ['deterministic check timed out']);
    assert.equal(scopeAfterChecksTerminal(['outside.txt'])?.stop_reason, 'DISALLOWED_FILE_CHANGE');
    assert.equal(scopeAfterChecksTerminal([]), null);
    assert.equal(checksPassed([]), false, 'no check cannot pass');
    assert.equal(checksPassed([ok, failing]), false);
    assert.equal(checksPassed([ok]), true);
  });

  it('reviewer output: exact verdicts, findings a string list or absent', () => {
    assert.deepEqual(parseReviewerResult({ verdict: 'PASS' }), { verdict: 'PASS', findings: [] });
    assert.deepEqual(parseReviewerResult({ verdict: 'PASS', findings: null, x: 1 }), {
      verdict: 'PASS',
      findings: [],
    });
    for (const bad of [
      'not json',
      null,
      [],
      { verdict: 'pass' },
      { verdict: 'PASS', findings: 'x' },
      { verdict: 'PASS', findings: [1] },
      {},
    ]) {
      assert.equal(parseReviewerResult(bad), null, JSON.stringify(bad));
    }
  });

  it('reviewer precedence: exit code > edited > invalid output > verdict', () => {
    const base = { code: 0, edited: false, result: { verdict: 'PASS' }, checks: [ok] };
    const reason = (f: Partial<typeof base>) => {
      const d = reviewDecision({ ...base, ...f });
      return d.kind === 'terminal' ? d.terminal.stop_reason : 'repair';
    };
    assert.equal(reason({}), 'CODE_REVIEWER_PASS');
    assert.equal(reason({ code: 2, edited: true, result: 'x' as never }), 'AGENT_FAILED');
    assert.equal(reason({ code: -124, edited: true }), 'TIMEOUT');
    assert.equal(reason({ edited: true, result: 'x' as never }), 'REVIEWER_EDITED_FILES');
    assert.equal(reason({ result: { verdict: 'MAYBE' } }), 'INVALID_REVIEWER_OUTPUT');
    assert.equal(reason({ result: { verdict: 'BLOCKED' }, checks: [ok] }), 'CODE_REVIEWER_BLOCKED');
    assert.equal(reason({ result: { verdict: 'BLOCKED' }, checks: [failing] }), 'CODE_REVIEWER_BLOCKED');
    assert.equal(reason({ checks: [failing] }), 'repair', 'PASS with a failing check repairs');
    assert.equal(reason({ checks: [] }), 'repair', 'PASS without checks repairs');
    const edited = reviewDecision({ ...base, code: 1, edited: true });
    assert.equal(edited.kind === 'terminal' && edited.terminal.reviewer.edited_files, true);
  });

  it('repair findings: the reviewer’s, plus a line when the checks did not pass', () => {
    const d = reviewDecision({
      code: 0,
      edited: false,
      result: { verdict: 'NEEDS_CHANGES', findings: ['a'] },
      checks: [failing],
    });
    assert.equal(d.kind, 'repair');
    if (d.kind === 'repair') assert.deepEqual(d.previousFindings, ['a', 'deterministic checks failed']);
    const d2 = reviewDecision({ code: 0, edited: false, result: { verdict: 'NEEDS_CHANGES' }, checks: [ok] });
    if (d2.kind === 'repair') assert.deepEqual(d2.previousFindings, []);
  });

  it('finish: an out-of-scope file overrides any decision, edited_files false, findings kept after', () => {
    const pass = reviewDecision({
      code: 0,
      edited: false,
      result: { verdict: 'PASS', findings: ['fine'] },
      checks: [ok],
    });
    assert.equal(pass.kind, 'terminal');
    if (pass.kind !== 'terminal') return;
    assert.deepEqual(finishTerminal(pass.terminal, ['src/a'], ['src/**']), pass.terminal);
    assert.equal(finishTerminal(pass.terminal, ['src/a'], ['src/**']).stop_reason, 'CODE_REVIEWER_PASS');
    const edited = reviewDecision({ code: 0, edited: true, result: {}, checks: [ok] });
    if (edited.kind !== 'terminal') return assert.fail();
    const over = finishTerminal(edited.terminal, ['src/a', 'z.txt', 'y.txt'], ['src/**']);
    assert.deepEqual(over, {
      final_verdict: 'BLOCKED',
      stop_reason: 'DISALLOWED_FILE_CHANGE',
      reviewer: {
        verdict: 'BLOCKED',
        edited_files: false,
        findings: ['disallowed file: z.txt', 'disallowed file: y.txt', 'code-reviewer edited files'],
      },
    });
    const max = maxAttemptsTerminal({ verdict: 'NEEDS_CHANGES', edited_files: false, findings: [] });
    assert.equal(finishTerminal(max, [], ['src/**']).final_verdict, 'NEEDS_CHANGES');
  });
});
