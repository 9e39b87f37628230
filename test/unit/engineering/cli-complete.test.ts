// What completing a loop-engineering loop takes (a passing verifier and evidence, never a bare
// claim), and the caps `open --engineering` refuses because the ledger could not count them —
// through the real CLI.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readLedger, runCli, sampleContract, tempRoot, writeJson, writeText } from '../helpers/cli';
import { contractText } from './helpers';

function workspace(overrides: Record<string, string | null> = {}) {
  const root = tempRoot('loop-eng-done-');
  const path = writeText(join(root, '.loop', 'contracts', 'ci.loop.md'), contractText(overrides));
  const cli = (...args: string[]) => runCli([...args, '--root', root]);
  return { root, path, cli };
}

/** Measurements that score the sample work-loop contract's rubric as pass. */
const PASSING = ['--measure', 'hard-one=0', '--measure', 'soft-one=100'];

describe('CLI: completing a loop-engineering loop', () => {
  it('refuses a plain --outcome complete: no verifier, no evidence (exit 1, both named, nothing written)', () => {
    const { root, path, cli } = workspace();
    assert.equal(cli('open', '--session', 's', '--engineering', path).code, 0);
    const r = cli('iterate', '--session', 's', '--outcome', 'complete');
    assert.equal(r.code, 1);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 2, r.stderr);
    assert.match(lines[0]!, /the contract's verifier \("Deterministic test and lint commands\."\) must pass/);
    assert.match(lines[1]!, /--outcome complete needs --evidence-path/);
    const ledger = readLedger(root, 's');
    assert.equal(ledger.iterations.length, 0);
    assert.equal(ledger.status, 'open');
  });

  it('refuses complete with evidence but no passing verifier, and with a verifier but no evidence', () => {
    const { root, path, cli } = workspace();
    const contract = writeJson(join(root, 'work.json'), sampleContract());
    cli('open', '--session', 's', '--contract', contract, '--engineering', path);
    const noVerifier = cli(
      'iterate',
      '--session',
      's',
      '--outcome',
      'complete',
      '--evidence-path',
      'log.txt',
    );
    assert.equal(noVerifier.code, 1);
    assert.match(noVerifier.stderr, /verifier .* must pass/);
    assert.doesNotMatch(noVerifier.stderr, /evidence-path/);
    const failing = cli(
      'iterate',
      '--session',
      's',
      '--outcome',
      'complete',
      '--measure',
      'hard-one=9',
      '--measure',
      'soft-one=0',
      '--evidence-path',
      'log.txt',
    );
    assert.equal(failing.code, 1, 'a failing rubric is no verifier pass');
    const noEvidence = cli('iterate', '--session', 's', '--outcome', 'complete', ...PASSING);
    assert.equal(noEvidence.code, 1);
    assert.match(noEvidence.stderr, /needs --evidence-path/);
    assert.doesNotMatch(noEvidence.stderr, /must pass/);
    assert.equal(readLedger(root, 's').iterations.length, 0);
  });

  it('records a complete whose rubric passes, with evidence: success, loop closed', () => {
    const { root, path, cli } = workspace({ budget: '1 call' });
    const contract = writeJson(join(root, 'work.json'), sampleContract());
    cli('open', '--session', 's', '--contract', contract, '--engineering', path);
    const r = cli(
      'iterate',
      '--session',
      's',
      '--outcome',
      'complete',
      ...PASSING,
      '--evidence-path',
      'log.txt',
      '--spent',
      'calls=1',
      '--json',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.outcome, 'complete', 'a budget only stops a continue');
    assert.equal(r.json.loop_status, 'success');
    assert.equal(readLedger(root, 's').status, 'closed');
  });

  it('records a complete the critic passed on a brief (a loop opened with --engineering alone)', () => {
    const { root, path, cli } = workspace();
    cli('open', '--session', 's', '--engineering', path);
    const diff = writeText(
      join(root, 'c.diff'),
      'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n',
    );
    const suite = writeText(join(root, 'suite.txt'), 'ok\n');
    const brief = cli('brief', '--session', 's', '--diff-file', diff, '--verification-file', suite, '--json');
    assert.equal(brief.code, 0, brief.stderr);
    const r = cli(
      'iterate',
      '--session',
      's',
      '--outcome',
      'complete',
      '--critic-brief',
      brief.json.brief_id,
      '--critic-verdict',
      'PASS',
      '--critic-next',
      'none',
      '--evidence-path',
      'suite.txt',
      '--json',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.loop_status, 'success');
  });

  it('a NO_OP complete is judged by the NO_OP policy, not the verifier', () => {
    const { path, cli } = workspace({ 'no-op': 'gh pr list --label ready | wc -l' });
    cli('open', '--session', 's', '--engineering', path);
    const r = cli(
      'iterate',
      '--session',
      's',
      '--outcome',
      'complete',
      '--no-op',
      '--eligible-count',
      '0',
      '--output-count',
      '0',
      '--side-effects',
      '0',
      '--evidence-path',
      'q.txt',
      '--json',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.loop_status, 'NO_OP');
  });

  it('a plain ledger keeps its complete: only --termination complete needs the verifier there', () => {
    const { root, cli } = workspace();
    const contract = writeJson(join(root, 'work.json'), sampleContract());
    cli('open', '--session', 's', '--contract', contract);
    assert.equal(cli('iterate', '--session', 's', '--outcome', 'complete').code, 0);
  });

  it('close --outcome complete is refused on a loop-engineering loop (exit 1), other closes are not', () => {
    const { root, path, cli } = workspace();
    cli('open', '--session', 's', '--engineering', path);
    const r = cli('close', '--session', 's', '--outcome', 'complete');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /completes only on a verified iteration/);
    assert.equal(readLedger(root, 's').status, 'open');
    assert.equal(cli('close', '--session', 's', '--outcome', 'stop').code, 0);
    const contract = writeJson(join(root, 'work.json'), sampleContract());
    cli('open', '--session', 'plain', '--contract', contract);
    assert.equal(cli('close', '--session', 'plain', '--outcome', 'complete').code, 0);
  });
});

describe('CLI: open --engineering refuses a cap the ledger cannot count', () => {
  const cases: [string, Record<string, string>, RegExp[]][] = [
    [
      'a time limit with no unit',
      { 'time limit': '45' },
      [/ci\.loop\.md:\d+: time limit "45" names no unit/],
    ],
    ['a budget in credits', { budget: '10 credits' }, [/\[cap-not-countable:budget\]/]],
    ['a bare budget number', { budget: '20' }, [/budget "20" names no unit .*tool calls, tokens, usd or \$/]],
    [
      'credits beside calls',
      { budget: '18 tool calls and 10 credits' },
      [/"10 credits" is in a unit the ledger cannot count/],
    ],
    ['a review budget in reviews', { 'review budget': '3 reviews' }, [/\[cap-not-countable:review_budget\]/]],
    [
      'two at once, in field order',
      { 'time limit': 'about 45', 'review budget': '2 diffs' },
      [/cap-not-countable:time_limit/, /cap-not-countable:review_budget/],
    ],
  ];
  for (const [name, overrides, messages] of cases) {
    it(`${name}: exit 1, NEEDS_INPUT, the field named, nothing written`, () => {
      const { root, path, cli } = workspace(overrides);
      assert.equal(cli('validate', '--strict', path).code, 0, 'the validator keeps the original verdict');
      const r = cli('open', '--session', 's', '--engineering', path);
      assert.equal(r.code, 1);
      const lines = r.stderr.trim().split('\n');
      assert.match(lines[0]!, /NEEDS_INPUT/);
      assert.equal(lines.length, messages.length + 1, r.stderr);
      messages.forEach((m, i) => assert.match(lines[i + 1]!, m));
      assert.equal(runCli(['status', '--session', 's', '--root', root]).code, 2);
    });
  }

  it('admits every countable form: $, usd, tokens, ms … hours, lines and files', () => {
    const { root, path, cli } = workspace({
      'time limit': '1500 ms',
      budget: '$3 or 20000 tokens',
      'review budget': '2 files',
    });
    assert.equal(cli('open', '--session', 's', '--engineering', path).code, 0);
    const caps = readLedger(root, 's').engineering.caps;
    assert.equal(caps.ms, 1500);
    assert.equal(caps.usd, 3);
    assert.equal(caps.tokens, 20000);
    assert.equal(caps.files, 2);
  });
});
