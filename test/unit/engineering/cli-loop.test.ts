// `open --engineering`, then `iterate` with budgets, NO_OP and termination signals, and `status`,
// through the real CLI.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readLedger, runCli, sampleContract, tempRoot, writeJson, writeText } from '../helpers/cli';
import { contractText } from './helpers';

function workspace(overrides: Record<string, string | null> = {}) {
  const root = tempRoot('loop-eng-');
  const path = writeText(join(root, '.loop', 'contracts', 'ci.loop.md'), contractText(overrides));
  const cli = (...args: string[]) => runCli([...args, '--root', root]);
  return { root, path, cli };
}

const NO_OP = { 'no-op': 'gh pr list --label ready | wc -l', 'no-op output limit': '1' };

describe('CLI: a loop under a loop-engineering contract', () => {
  it('open --engineering stores the fields and parsed caps; default stall threshold 2', () => {
    const { root, path, cli } = workspace({ budget: '18 tool calls and 5 usd' });
    const r = cli('open', '--session', 's', '--engineering', path, '--json');
    assert.equal(r.code, 0, r.stderr);
    const ledger = readLedger(root, 's');
    assert.equal(ledger.stall_threshold, 2);
    assert.equal(ledger.contract.iteration_limit, 4);
    assert.deepEqual(ledger.engineering.caps, {
      calls: 18,
      changed_lines: 800,
      files: 8,
      iterations: 4,
      ms: 2_100_000,
      tokens: null,
      usd: 5,
    });
    assert.equal(ledger.engineering.fields.max_iterations, '4.');
    assert.equal(ledger.engineering.mode, 'goal');
  });

  it('open --engineering refuses an inadmissible contract: exit 1, NEEDS_INPUT, every finding, nothing written', () => {
    const { root, path, cli } = workspace({ verifier: 'self check', topology: 'manager-workers' });
    const r = cli('open', '--session', 's', '--engineering', path);
    assert.equal(r.code, 1);
    const lines = r.stderr.trim().split('\n');
    assert.match(lines[0]!, /NEEDS_INPUT/);
    assert.match(lines[1]!, /ci\.loop\.md:15: verifier cannot be the builder alone \[self-verifier\]/);
    assert.match(lines[2]!, /\[manager-workers-needs-integration-gate\]/); // strict rules apply at open
    assert.equal(lines.length, 3);
    assert.equal(runCli(['status', '--session', 's', '--root', root]).code, 2);
  });

  it('open needs --contract or --engineering (exit 2); an unreadable engineering file is exit 2', () => {
    const { root, cli } = workspace();
    assert.equal(cli('open', '--session', 's').code, 2);
    const r = cli('open', '--session', 's', '--engineering', join(root, 'nope.loop.md'));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /nope\.loop\.md: engineering contract file no such file/);
  });

  it('with a work-loop contract too, the tighter iteration cap stops the loop (budget-stop)', () => {
    const { root, path, cli } = workspace({ 'max iterations': '2 iterations' });
    const contract = writeJson(join(root, 'work.json'), sampleContract({ iteration_limit: 5 }));
    assert.equal(cli('open', '--session', 's', '--contract', contract, '--engineering', path).code, 0);
    assert.equal(readLedger(root, 's').contract.iteration_limit, 5);
    assert.equal(cli('iterate', '--session', 's', '--outcome', 'continue').code, 0);
    const r = cli('iterate', '--session', 's', '--outcome', 'continue', '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.outcome, 'stop');
    assert.equal(r.json.stall, 'budget-stop');
    assert.equal(r.json.loop_status, 'BUDGET_STOP');
    assert.deepEqual(r.json.budget_reached, ['iterations 2/2']);
    assert.equal(readLedger(root, 's').status, 'closed');
  });

  it('--spent adds up per ledger until a cap turns continue into stop — never success', () => {
    const { root, path, cli } = workspace({ budget: '10 tool calls' });
    cli('open', '--session', 's', '--engineering', path);
    const first = cli(
      'iterate',
      '--session',
      's',
      '--outcome',
      'continue',
      '--spent',
      'calls=4',
      '--spent',
      'tokens=900',
      '--json',
    );
    assert.equal(first.json.outcome, 'continue');
    assert.deepEqual(first.json.spent, { calls: 4, ms: 0, tokens: 900, usd: 0 });
    const second = cli('iterate', '--session', 's', '--outcome', 'continue', '--spent', 'calls=6', '--json');
    assert.equal(second.json.outcome, 'stop');
    assert.equal(second.json.reported_outcome, 'continue');
    assert.deepEqual(second.json.budget_reached, ['calls 10/10']);
    assert.deepEqual(readLedger(root, 's').engineering.spent, { calls: 10, ms: 0, tokens: 900, usd: 0 });
    const status = cli('status', '--session', 's', '--json');
    assert.deepEqual(status.json.budget.calls, { cap: 10, spent: 10 });
    assert.deepEqual(status.json.budget.iterations, { cap: 4, spent: 2 });
    assert.match(
      cli('status', '--session', 's').stdout,
      /budget iterations 2\/4, time \S+\/35m, calls 10\/10, changed lines 0\/800, files 0\/8/,
    );
  });

  it('refuses bad --spent values, and --spent on a loop opened without --engineering (exit 1, nothing written)', () => {
    const { root, path, cli } = workspace();
    cli('open', '--session', 's', '--engineering', path);
    const bad = cli('iterate', '--session', 's', '--outcome', 'continue', '--spent', 'calls=-2');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--spent calls=-2: calls must be a whole number/);
    assert.equal(readLedger(root, 's').iterations.length, 0);
    const contract = writeJson(join(root, 'work.json'), sampleContract());
    cli('open', '--session', 'plain', '--contract', contract);
    const plain = cli('iterate', '--session', 'plain', '--outcome', 'continue', '--spent', 'calls=1');
    assert.equal(plain.code, 1);
    assert.match(plain.stderr, /--spent needs a loop opened with --engineering/);
  });

  it('a plain ledger without the new flags keeps the original 24 record keys', () => {
    const { root, cli } = workspace();
    const contract = writeJson(join(root, 'work.json'), sampleContract());
    cli('open', '--session', 'plain', '--contract', contract);
    const r = cli('iterate', '--session', 'plain', '--outcome', 'continue', '--json');
    assert.equal(Object.keys(r.json).length, 24);
  });

  describe('NO_OP', () => {
    const quiet = [
      '--no-op',
      '--eligible-count',
      '0',
      '--output-count',
      '1',
      '--side-effects',
      '0',
      '--evidence-path',
      'q.txt',
    ];

    it('is accepted when the contract allows it and every count is within policy', () => {
      const { root, path, cli } = workspace(NO_OP);
      cli('open', '--session', 's', '--engineering', path);
      const r = cli('iterate', '--session', 's', '--outcome', 'continue', ...quiet, '--json');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json.loop_status, 'NO_OP');
      assert.deepEqual(r.json.no_op, {
        eligible_count: 0,
        evidence_paths: ['q.txt'],
        output_count: 1,
        output_limit: 1,
        query: 'gh pr list --label ready | wc -l',
        side_effects: 0,
      });
      assert.equal(readLedger(root, 's').iterations[0].no_op.query, 'gh pr list --label ready | wc -l');
    });

    const refusals: [string, Record<string, string | null>, string[], RegExp][] = [
      ['the contract does not allow it', {}, quiet, /does not allow NO_OP/],
      [
        'the query found work',
        NO_OP,
        quiet.map((a, i) => (i === 2 ? '2' : a)),
        /--eligible-count 2: the eligibility query found work/,
      ],
      [
        'outputs over the limit',
        NO_OP,
        quiet.map((a, i) => (i === 4 ? '3' : a)),
        /--output-count 3: over the contract's NO_OP output limit 1/,
      ],
      ['a side effect happened', NO_OP, quiet.map((a, i) => (i === 6 ? '1' : a)), /--side-effects 1/],
      [
        'a file changed',
        NO_OP,
        [...quiet, '--files-changed', 'src/a.ts'],
        /--files-changed src\/a\.ts: a NO_OP iteration changes no files/,
      ],
      ['no evidence path', NO_OP, quiet.slice(0, -2), /needs an --evidence-path/],
      ['a count is missing', NO_OP, ['--no-op', ...quiet.slice(3)], /--no-op needs --eligible-count/],
      ['counts without --no-op', NO_OP, quiet.slice(1), /pass --no-op/],
    ];
    for (const [name, overrides, args, message] of refusals) {
      it(`is refused (exit 1, named, nothing written) when ${name}`, () => {
        const { root, path, cli } = workspace(overrides);
        cli('open', '--session', 's', '--engineering', path);
        const r = cli('iterate', '--session', 's', '--outcome', 'continue', ...args);
        assert.equal(r.code, 1, r.stdout);
        assert.match(r.stderr, message);
        assert.equal(readLedger(root, 's').iterations.length, 0);
      });
    }

    it('is refused with an outcome other than continue or complete', () => {
      const { path, cli } = workspace(NO_OP);
      cli('open', '--session', 's', '--engineering', path);
      const r = cli('iterate', '--session', 's', '--outcome', 'pause', ...quiet);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /--no-op needs --outcome continue or complete/);
    });
  });

  describe('termination signals', () => {
    const rows: [string, string, string, string, string | null][] = [
      ['end_turn', 'continue', 'complete', 'continue', null],
      ['tool_use', 'continue', 'tool_request', 'continue', null],
      ['max_tokens', 'continue', 'truncation', 'pause', null],
      ['pause_turn', 'continue', 'checkpoint', 'pause', null],
      ['refusal', 'continue', 'refusal', 'escalate', 'NO_PROGRESS'],
      ['error', 'continue', 'error', 'escalate', 'NO_PROGRESS'],
      ['weird_signal', 'continue', 'unknown', 'escalate', 'NO_PROGRESS'],
    ];
    for (const [raw, reported, reason, outcome, status] of rows) {
      it(`${raw} → termination_reason ${reason}, records ${outcome}`, () => {
        const { root, path, cli } = workspace();
        cli('open', '--session', 's', '--engineering', path);
        const r = cli('iterate', '--session', 's', '--outcome', reported, '--termination', raw, '--json');
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.json.termination_reason, reason);
        assert.equal(r.json.termination_signal, raw);
        assert.equal(r.json.outcome, outcome);
        assert.equal(r.json.reported_outcome, reported);
        assert.equal(r.json.loop_status, status);
        if (outcome === 'escalate') assert.match(readLedger(root, 's').close_blocker, /ended with/);
      });
    }

    it('complete needs a passing verifier receipt on the iteration', () => {
      const { root, cli } = workspace();
      const contract = writeJson(join(root, 'work.json'), sampleContract());
      cli('open', '--session', 's', '--contract', contract);
      const refused = cli('iterate', '--session', 's', '--outcome', 'complete', '--termination', 'end_turn');
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /needs a passing verifier/);
      const ok = cli(
        'iterate',
        '--session',
        's',
        '--outcome',
        'complete',
        '--termination',
        'end_turn',
        '--measure',
        'hard-one=0',
        '--measure',
        'soft-one=100',
        '--json',
      );
      assert.equal(ok.code, 0, ok.stderr);
      assert.equal(ok.json.termination_reason, 'complete');
      assert.equal(ok.json.loop_status, 'success');
    });
  });

  it('a brief records the diff size, and a diff over the review budget stops the loop', () => {
    const { root, path, cli } = workspace({ 'review budget': '3 changed lines and 1 file' });
    cli('open', '--session', 's', '--engineering', path);
    const diff = writeText(
      join(root, 'change.diff'),
      [
        'diff --git a/x.ts b/x.ts',
        '--- a/x.ts',
        '+++ b/x.ts',
        '@@ -1,2 +1,3 @@',
        '-a',
        '+b',
        '+c',
        '+d',
        '',
      ].join('\n'),
    );
    const suite = writeText(join(root, 'suite.txt'), 'ok\n');
    const b = cli('brief', '--session', 's', '--diff-file', diff, '--verification-file', suite);
    assert.equal(b.code, 0, b.stderr);
    assert.deepEqual(readLedger(root, 's').engineering.review, { changed_lines: 4, files: 1 });
    const r = cli('iterate', '--session', 's', '--outcome', 'continue', '--json');
    assert.equal(r.json.outcome, 'stop');
    assert.deepEqual(r.json.budget_reached, ['changed lines 4/3']);
  });
});
