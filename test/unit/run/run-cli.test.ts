// `loop-ledger run` as a real child process against the sample target, one case per behaviour the
// original harness's tests pin, each receipt also put through `validate`.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempRoot } from '../helpers/cli';
import {
  AGENTS,
  ALLOW,
  CHECK,
  QUICK_TIMEOUT_AGENTS,
  readJson,
  readText,
  runDirOf,
  runLoop,
  runSample,
  sampleRepo,
  validate,
  type RunResult,
} from './helpers';

function assertValid(repo: string, r: RunResult): void {
  const v = validate(join(runDirOf(repo, r), 'final-receipt.json'));
  assert.equal(v.code, 0, v.stderr);
  assert.match(v.stdout, /^LOOP RECEIPT VALID: /);
}

function expect(r: RunResult, verdict: string, reason: string, exitCode = verdict === 'PASS' ? 0 : 1): void {
  assert.equal(r.code, exitCode, r.stderr);
  assert.equal(r.json.final_verdict, verdict);
  assert.equal(r.json.stop_reason, reason);
}

describe('run: the harness CLI (drop-in for loop.py)', function () {
  this.timeout(60_000);

  it('PASS: one attempt, new untracked file in the diff, the run dir laid out as the original', () => {
    const repo = sampleRepo();
    const r = runSample(repo, 'pass');
    expect(r, 'PASS', 'CODE_REVIEWER_PASS');
    assert.equal(r.json.attempts_used, 1);
    assert.deepEqual(r.json.changed_files, [
      'sample-target/src/time/parse_duration.mjs',
      'sample-target/tests/sample_target_import.mjs',
    ]);
    const dir = runDirOf(repo, r);
    for (const f of [
      'request.json',
      'objective.md',
      'explorer/explorer-prompt.md',
      'explorer/explorer-stdout.txt',
      'explorer/explorer-stderr.txt',
      'explorer/explorer-result.json',
      'attempts/01/coder-prompt.md',
      'attempts/01/coder-result.json',
      'attempts/01/changed-files.txt',
      'attempts/01/checks.json',
      'attempts/01/checks/01.stdout',
      'attempts/01/checks/01.stderr',
      'attempts/01/diff.patch',
      'attempts/01/code-reviewer-prompt.md',
      'attempts/01/code-reviewer-result.json',
      'final-receipt.json',
    ]) {
      assert.ok(existsSync(join(dir, f)), f);
    }
    assert.match(
      readText(join(dir, 'attempts/01/diff.patch')),
      /sample-target\/tests\/sample_target_import\.mjs/,
    );
    assert.deepEqual(Object.keys(readJson(join(dir, 'request.json'))), [
      'agent_config',
      'allowed_globs',
      'check_timeout',
      'checks',
      'max_attempts',
      'objective',
    ]);
    assert.equal(readJson(join(dir, 'final-receipt.json')).run_id, r.json.run_id);
    assert.match(r.json.run_id, /^\d{8}T\d{6}Z-implement-parseduration$/);
    assertValid(repo, r);
  });

  it('without --print-json stdout is {final_verdict, run_dir}', () => {
    const repo = sampleRepo();
    const r = runLoop(repo, ['--objective', 'x', '--agent-config', AGENTS, ...ALLOW, ...CHECK], {
      LOOP_FIXTURE_MODE: 'pass',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(Object.keys(r.json), ['final_verdict', 'run_dir']);
    assert.match(r.json.run_dir, /^\.loop\/runs\/\d{8}T\d{6}Z-x$/);
  });

  it('reviewer PASS over a failing check repairs until NEEDS_CHANGES/MAX_ATTEMPTS', () => {
    const repo = sampleRepo();
    const r = runSample(repo, 'reviewer-pass-failing-check', ['--max-attempts', '1']);
    expect(r, 'NEEDS_CHANGES', 'MAX_ATTEMPTS');
    assert.equal(r.json.checks[0].returncode, 1);
    assertValid(repo, r);
  });

  it('reviewer NEEDS_CHANGES twice: attempts 2, findings handed back to the coder', () => {
    const repo = sampleRepo();
    const r = runSample(repo, 'reviewer-needs-changes', ['--max-attempts', '2']);
    expect(r, 'NEEDS_CHANGES', 'MAX_ATTEMPTS');
    assert.equal(r.json.attempts_used, 2);
    const prompt = readJson(join(runDirOf(repo, r), 'attempts/02/coder-prompt.md'));
    assert.deepEqual(prompt.previous_findings, ['handle days too']);
    assert.equal(prompt.attempt, 2);
    assert.equal(prompt.explorer_result.summary, 'parse durations');
    assertValid(repo, r);
  });

  it('repair: a failing first attempt gets findings + "deterministic checks failed", then PASS', () => {
    const repo = sampleRepo();
    const r = runSample(repo, 'repair');
    expect(r, 'PASS', 'CODE_REVIEWER_PASS');
    assert.equal(r.json.attempts_used, 2);
    const prompt = readJson(join(runDirOf(repo, r), 'attempts/02/coder-prompt.md'));
    assert.deepEqual(prompt.previous_findings, ['wrong result for 1h 30m', 'deterministic checks failed']);
  });

  it('no --check cannot PASS: every attempt repairs', () => {
    const repo = sampleRepo();
    const r = runLoop(
      repo,
      ['--objective', 'x', '--agent-config', AGENTS, ...ALLOW, '--max-attempts', '2', '--print-json'],
      {
        LOOP_FIXTURE_MODE: 'pass',
      },
    );
    expect(r, 'NEEDS_CHANGES', 'MAX_ATTEMPTS');
    assert.equal(r.json.attempts_used, 2);
    assert.deepEqual(r.json.checks, []);
    assertValid(repo, r);
  });

  it('reviewer BLOCKED → CODE_REVIEWER_BLOCKED; coder failure → AGENT_FAILED; reviewer failure → AGENT_FAILED', () => {
    const a = sampleRepo();
    const blocked = runSample(a, 'reviewer-blocked');
    expect(blocked, 'BLOCKED', 'CODE_REVIEWER_BLOCKED');
    assert.deepEqual(blocked.json.reviewer.findings, ['needs a product decision']);
    assertValid(a, blocked);
    const b = sampleRepo();
    const coder = runSample(b, 'coder-fail');
    expect(coder, 'BLOCKED', 'AGENT_FAILED');
    assert.deepEqual(coder.json.reviewer.findings, ['coder failed']);
    assert.deepEqual(coder.json.checks, []);
    assert.equal(coder.json.artifacts.final_diff, '');
    assertValid(b, coder);
    const c = sampleRepo();
    const reviewer = runSample(c, 'reviewer-fail');
    expect(reviewer, 'BLOCKED', 'AGENT_FAILED');
    assert.deepEqual(reviewer.json.reviewer.findings, ['code-reviewer failed']);
  });

  it('invalid reviewer output (not JSON, non-list findings) → INVALID_REVIEWER_OUTPUT', () => {
    for (const mode of ['reviewer-not-json', 'reviewer-bad-findings']) {
      const repo = sampleRepo();
      const r = runSample(repo, mode);
      expect(r, 'BLOCKED', 'INVALID_REVIEWER_OUTPUT');
      assert.deepEqual(r.json.reviewer.findings, ['invalid code-reviewer JSON']);
      assertValid(repo, r);
    }
  });

  it('explorer failure and explorer edits: BLOCKED before attempt 1', () => {
    const a = sampleRepo();
    const failed = runSample(a, 'explorer-fail');
    expect(failed, 'BLOCKED', 'AGENT_FAILED');
    assert.equal(failed.json.attempts_used, 0);
    assert.deepEqual(failed.json.reviewer.findings, ['explorer failed']);
    assert.ok(!existsSync(join(runDirOf(a, failed), 'attempts')));
    assertValid(a, failed);
    const b = sampleRepo();
    const edits = runSample(b, 'explorer-edits-allowed');
    expect(edits, 'BLOCKED', 'AGENT_FAILED');
    assert.deepEqual(edits.json.reviewer.findings, ['explorer edited files']);
  });

  it('reviewer edits an allowed file → REVIEWER_EDITED_FILES, edited_files true', () => {
    const repo = sampleRepo();
    const r = runSample(repo, 'reviewer-edits-allowed');
    expect(r, 'BLOCKED', 'REVIEWER_EDITED_FILES');
    assert.equal(r.json.reviewer.edited_files, true);
    assert.deepEqual(r.json.reviewer.findings, ['code-reviewer edited files']);
    assertValid(repo, r);
  });

  describe('scope escapes in each phase → DISALLOWED_FILE_CHANGE', () => {
    const cases: [string, string[], number, string[]][] = [
      ['coder-outside', [], 1, []],
      ['coder-outside-fail', [], 1, ['coder failed']],
      ['explorer-outside-fail', [], 0, ['explorer failed', 'explorer edited files']],
      ['reviewer-outside', [], 1, ['code-reviewer edited files']],
    ];
    for (const [mode, extra, attempts, kept] of cases) {
      it(mode, () => {
        const repo = sampleRepo();
        const r = runSample(repo, mode, extra);
        expect(r, 'BLOCKED', 'DISALLOWED_FILE_CHANGE');
        assert.equal(r.json.attempts_used, attempts);
        assert.equal(r.json.reviewer.edited_files, false, 'the finish override');
        assert.deepEqual(r.json.reviewer.findings, ['disallowed file: outside.txt', ...kept]);
        assert.ok(r.json.changed_files.includes('outside.txt'));
        assertValid(repo, r);
      });
    }

    it('a check that writes outside the globs (exit 0 and exit 1)', () => {
      for (const exit of [0, 1]) {
        const repo = sampleRepo();
        const check = `node -e "require('fs').writeFileSync('outside.txt','x'); process.exit(${exit})"`;
        const r = runLoop(
          repo,
          ['--objective', 'x', '--agent-config', AGENTS, ...ALLOW, '--check', check, '--print-json'],
          {
            LOOP_FIXTURE_MODE: 'pass',
          },
        );
        expect(r, 'BLOCKED', 'DISALLOWED_FILE_CHANGE');
        assert.equal(r.json.checks[0].returncode, exit);
        assert.ok(
          !existsSync(join(runDirOf(repo, r), 'attempts/01/code-reviewer-prompt.md')),
          'the reviewer never ran',
        );
      }
    });
  });

  it('environment: parent LOOP_* never reach agents; role vars set; the reviewer gets diff_text, no paths', () => {
    const repo = sampleRepo();
    const r = runSample(repo, 'env', [], {
      LOOP_RUN_DIR: '/tmp/evil',
      LOOP_CHECKS_JSON: '/tmp/evil.json',
      LOOP_DIFF_PATH: '/tmp/evil.diff',
      LOOP_RANDOM_PARENT_VALUE: 'x',
      RANDOM_PARENT_VALUE: 'kept',
    });
    expect(r, 'PASS', 'CODE_REVIEWER_PASS');
    const dir = runDirOf(repo, r);
    const seen = (file: string) => JSON.parse(readText(join(dir, file)).split('\n')[0] as string);
    const explorer = seen('explorer/explorer-stderr.txt');
    assert.deepEqual(explorer.loopVars, ['LOOP_FIXTURE_MODE', 'LOOP_REPO', 'LOOP_ROLE']);
    assert.equal(explorer.parent, 'kept');
    const reviewer = seen('attempts/01/code-reviewer-stderr.txt');
    assert.deepEqual(reviewer.loopVars, ['LOOP_ATTEMPT', 'LOOP_FIXTURE_MODE', 'LOOP_REPO', 'LOOP_ROLE']);
    assert.deepEqual(reviewer.keys, [
      'allowed_globs',
      'attempt',
      'changed_files',
      'check_results',
      'checks',
      'diff_text',
      'objective',
      'role',
    ]);
    const prompt = readJson(join(dir, 'attempts/01/code-reviewer-prompt.md'));
    assert.deepEqual(Object.keys(prompt.check_results[0]), [
      'command',
      'returncode',
      'stderr_excerpt',
      'stdout_excerpt',
    ]);
    assert.match(prompt.diff_text, /parse_duration\.mjs/);
    assert.ok(!JSON.stringify(prompt).includes('.loop/runs'), 'no artifact path reaches the reviewer');
  });

  it('a check timeout is -125 with timed_out, BLOCKED/TIMEOUT', () => {
    const repo = sampleRepo();
    const r = runLoop(
      repo,
      [
        '--objective',
        'x',
        '--agent-config',
        AGENTS,
        ...ALLOW,
        '--check',
        'sleep 30',
        '--check',
        'true',
        '--check-timeout',
        '1',
        '--print-json',
      ],
      { LOOP_FIXTURE_MODE: 'pass' },
    );
    expect(r, 'BLOCKED', 'TIMEOUT');
    assert.equal(r.json.checks[0].returncode, -125);
    assert.equal(r.json.checks[0].timed_out, true);
    assert.equal(r.json.checks[1].returncode, 0, 'every check runs, no short-circuit');
    assert.deepEqual(r.json.reviewer.findings, ['deterministic check timed out']);
    assertValid(repo, r);
  });

  it('an agent timeout kills its whole group: a grandchild never writes its late file', async () => {
    const repo = sampleRepo();
    const late = join(tempRoot('late-'), 'late.txt');
    const r = runLoop(
      repo,
      ['--objective', 'x', '--agent-config', QUICK_TIMEOUT_AGENTS, ...ALLOW, ...CHECK, '--print-json'],
      {
        LOOP_FIXTURE_MODE: 'coder-timeout-grandchild',
        FIXTURE_LATE_FILE: late,
      },
    );
    expect(r, 'BLOCKED', 'TIMEOUT');
    assert.deepEqual(r.json.reviewer.findings, ['coder timed out']);
    assert.match(
      readText(join(runDirOf(repo, r), 'attempts/01/coder-stderr.txt')),
      /TIMEOUT: coder exceeded 1 seconds/,
    );
    await new Promise((done) => setTimeout(done, 3500));
    assert.ok(!existsSync(late), 'the grandchild was killed with its group');
  });

  it('a coder that times out after writing outside the globs is DISALLOWED with "coder timed out"', () => {
    const repo = sampleRepo();
    const r = runLoop(
      repo,
      ['--objective', 'x', '--agent-config', QUICK_TIMEOUT_AGENTS, ...ALLOW, ...CHECK, '--print-json'],
      {
        LOOP_FIXTURE_MODE: 'coder-outside-timeout',
      },
    );
    expect(r, 'BLOCKED', 'DISALLOWED_FILE_CHANGE');
    assert.deepEqual(r.json.reviewer.findings, ['disallowed file: outside.txt', 'coder timed out']);
  });

  it('a missing agent binary is "explorer start failed" (127), AGENT_FAILED', () => {
    const repo = sampleRepo();
    const config = join(tempRoot('cfg-'), 'agents.toml');
    writeFileSync(
      config,
      readText(AGENTS).replace(
        'cmd = ["{node}", "{config_dir}/agent.mjs"]',
        'cmd = ["/nonexistent/agent-binary"]',
      ),
    );
    const r = runLoop(repo, [
      '--objective',
      'x',
      '--agent-config',
      config,
      ...ALLOW,
      ...CHECK,
      '--print-json',
    ]);
    expect(r, 'BLOCKED', 'AGENT_FAILED');
    assert.deepEqual(r.json.reviewer.findings, ['explorer start failed']);
    assert.match(
      readText(join(runDirOf(repo, r), 'explorer/explorer-stderr.txt')),
      /^AGENT_START_FAILED: explorer: /,
    );
  });

  describe('preflight: exit 2, nothing written', () => {
    const cases: [string, string[], RegExp][] = [
      [
        'empty objective',
        ['--objective', '  ', '--agent-config', AGENTS, ...ALLOW],
        /objective must not be empty/,
      ],
      [
        'max-attempts < 1',
        ['--objective', 'x', '--agent-config', AGENTS, ...ALLOW, '--max-attempts', '0'],
        /--max-attempts must be >= 1/,
      ],
      [
        'check-timeout < 1',
        ['--objective', 'x', '--agent-config', AGENTS, ...ALLOW, '--check-timeout', '0'],
        /--check-timeout must be >= 1/,
      ],
      [
        'missing --allow',
        ['--objective', 'x', '--agent-config', AGENTS],
        /the following arguments are required: --allow/,
      ],
      [
        'both objectives',
        ['--objective', 'x', '--objective-file', 'f', '--agent-config', AGENTS, ...ALLOW],
        /not allowed with argument --objective/,
      ],
      [
        'bad int',
        ['--objective', 'x', '--agent-config', AGENTS, ...ALLOW, '--max-attempts', 'two'],
        /invalid int value: 'two'/,
      ],
      [
        'missing config',
        ['--objective', 'x', '--agent-config', 'nope.toml', ...ALLOW],
        /--agent-config nope\.toml: cannot read \(no such file\)/,
      ],
      [
        'bad session',
        ['--objective', 'x', '--agent-config', AGENTS, ...ALLOW, '--session', '../x'],
        /session/,
      ],
      [
        'unknown flag',
        ['--objective', 'x', '--agent-config', AGENTS, ...ALLOW, '--frobnicate'],
        /unrecognized arguments: --frobnicate/,
      ],
    ];
    for (const [name, args, message] of cases) {
      it(name, () => {
        const repo = sampleRepo();
        const r = runLoop(repo, args);
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, message);
        assert.doesNotMatch(r.stderr, /\n\s+at /);
        assert.ok(!existsSync(join(repo, '.loop')), 'nothing written');
      });
    }

    it('a dirty tree is refused unless --no-require-clean', () => {
      const repo = sampleRepo();
      writeFileSync(join(repo, 'stray.txt'), 'x');
      const r = runSample(repo, 'pass');
      assert.equal(r.code, 2);
      assert.match(r.stderr, /working tree is not clean before loop run/);
      assert.ok(!existsSync(join(repo, '.loop')));
      const r2 = runSample(repo, 'pass', ['--no-require-clean']);
      expect(r2, 'BLOCKED', 'DISALLOWED_FILE_CHANGE', 1);
      assert.deepEqual(r2.json.reviewer.findings.slice(0, 1), ['disallowed file: stray.txt']);
    });

    it('a config that breaks the role rules, with invalid TOML, or not at the repository top', () => {
      const repo = sampleRepo();
      const dir = tempRoot('cfg-');
      writeFileSync(join(dir, 'ro.toml'), readText(AGENTS).replace('writes = true', 'writes = false'));
      writeFileSync(join(dir, 'bad.toml'), '[explorer\ncmd = 1');
      const ro = runLoop(repo, ['--objective', 'x', '--agent-config', join(dir, 'ro.toml'), ...ALLOW]);
      assert.equal(ro.code, 2);
      assert.match(ro.stderr, /coder must be write-capable/);
      const bad = runLoop(repo, ['--objective', 'x', '--agent-config', join(dir, 'bad.toml'), ...ALLOW]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /invalid TOML/);
      const sub = runLoop(repo, [
        '--objective',
        'x',
        '--agent-config',
        AGENTS,
        ...ALLOW,
        '--root',
        join(repo, 'sample-target'),
      ]);
      assert.equal(sub.code, 2);
      assert.match(sub.stderr, /not the top of its git work tree/);
      assert.ok(!existsSync(join(repo, '.loop')));
    });
  });

  it('a second run gets its own run directory; --objective-file is read and trimmed; a no-op coder repairs', () => {
    const repo = sampleRepo();
    const file = join(tempRoot('obj-'), 'objective.md');
    writeFileSync(file, '\n  Implement parseDuration  \n');
    const a = runLoop(
      repo,
      ['--objective-file', file, '--agent-config', AGENTS, ...ALLOW, ...CHECK, '--print-json'],
      {
        LOOP_FIXTURE_MODE: 'noop',
      },
    );
    const b = runLoop(
      repo,
      ['--objective-file', file, '--agent-config', AGENTS, ...ALLOW, ...CHECK, '--print-json'],
      {
        LOOP_FIXTURE_MODE: 'noop',
      },
    );
    assert.equal(a.json.objective, 'Implement parseDuration');
    assert.notEqual(a.json.run_id, b.json.run_id);
    assert.equal(readdirSync(join(repo, '.loop/runs')).length, 2);
    // a no-op coder: the diff is "\n", the run repairs until MAX_ATTEMPTS
    assert.equal(readText(join(runDirOf(repo, a), 'attempts/01/diff.patch')), '\n');
    expect(a, 'NEEDS_CHANGES', 'MAX_ATTEMPTS');
  });
});
