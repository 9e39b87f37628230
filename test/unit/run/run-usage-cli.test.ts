// `loop-ledger run` as a real child process with fake agents that report their cost and tokens:
// what each attempt's agents reported lands on that attempt's iteration, `status --json` adds it
// up, and a report past what `--cost` accepts never turns a total into Infinity (JSON null).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readLedger, runCli } from '../helpers/cli';
import { runDirOf, runSample, sampleRepo, validate } from './helpers';

const SESSION = 'usage-1';

function statusJson(repo: string): { spend: Record<string, number | null> } {
  const r = runCli(['status', '--root', repo, '--session', SESSION, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('run: the cost and tokens agents report (CLI)', function () {
  this.timeout(90_000);

  it('each attempt records its coder’s and reviewer’s reports; status adds them up', () => {
    const repo = sampleRepo();
    // Claude Code's shape, printed by the coder and by the reviewer of both attempts.
    const usage = { total_cost_usd: 0.25, usage: { input_tokens: 1000, output_tokens: 200 } };
    const r = runSample(repo, 'repair', ['--session', SESSION], { FIXTURE_USAGE: JSON.stringify(usage) });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.attempts_used, 2);
    const ledger = readLedger(repo, SESSION);
    assert.equal(ledger.iterations.length, 2);
    for (const record of ledger.iterations) {
      assert.equal(record.cost_usd, 0.5, 'coder 0.25 + reviewer 0.25');
      assert.equal(record.tokens_in, 2000);
      assert.equal(record.tokens_out, 400);
    }
    const status = statusJson(repo);
    assert.deepEqual(status.spend, { cost_usd: 1, tokens_in: 4000, tokens_out: 800 });
    // The receipt stays the original harness's shape: it still validates.
    const v = validate(join(runDirOf(repo, r), 'final-receipt.json'));
    assert.equal(v.code, 0, v.stderr);
  });

  it('an agent that reports nothing leaves the records without spend keys', () => {
    const repo = sampleRepo();
    const r = runSample(repo, 'pass', ['--session', SESSION]);
    assert.equal(r.code, 0, r.stderr);
    const [record] = readLedger(repo, SESSION).iterations;
    for (const key of ['cost_usd', 'tokens_in', 'tokens_out']) assert.ok(!(key in record), key);
    assert.deepEqual(statusJson(repo).spend, { cost_usd: 0, tokens_in: 0, tokens_out: 0 });
  });

  it('a cost of 1e308 is not recorded: two attempts never add up to Infinity (null) in status', () => {
    const repo = sampleRepo();
    // Only the coder reports: recorded as it was, each attempt would say 1e308 and the session's
    // total 2e308 — Infinity, which JSON prints as null.
    const usage = { cost_usd: 1e308, tokens_in: 7, tokens_out: 3 };
    const r = runSample(repo, 'repair', ['--session', SESSION], {
      FIXTURE_USAGE: JSON.stringify(usage),
      FIXTURE_USAGE_ROLE: 'coder',
    });
    assert.equal(r.code, 0, r.stderr);
    const records = readLedger(repo, SESSION).iterations;
    assert.equal(records.length, 2);
    for (const record of records) {
      assert.ok(!('cost_usd' in record), `cost_usd: ${JSON.stringify(record.cost_usd)}`);
      assert.equal(record.tokens_in, 7);
      assert.equal(record.tokens_out, 3);
    }
    assert.deepEqual(statusJson(repo).spend, { cost_usd: 0, tokens_in: 14, tokens_out: 6 });
  });
});
