// Cost and tokens per iteration, and the contract caps that stop a loop, through the CLI as a
// child process: each flag, each refusal, each cap ending the loop, and status/list reporting.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerPath, readLedger, runCli, sampleContract, tempRoot, writeJson } from '../helpers/cli';
import { assertNoStack, loopWith } from './setup';
import { FILES, runCase, SPEND_REFUSALS, STORE_CASES } from './store-cases';

describe('cli: iterate --cost --tokens-in --tokens-out', () => {
  it('records the three keys on the iteration, and only when given', () => {
    const loop = loopWith({ iteration_limit: 10 });
    const r = loop.cli(
      'iterate',
      '--outcome',
      'continue',
      '--cost',
      '0.125',
      '--tokens-in',
      '1200',
      '--tokens-out',
      '340',
      '--json',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.cost_usd, 0.125);
    assert.equal(r.json.tokens_in, 1200);
    assert.equal(r.json.tokens_out, 340);
    const only = loop.cli('iterate', '--outcome', 'continue', '--tokens-out', '7', '--json');
    assert.equal(only.code, 0, only.stderr);
    assert.equal(only.json.tokens_out, 7);
    assert.ok(!('cost_usd' in only.json) && !('tokens_in' in only.json), 'absent flags write no key');
    loop.cli('iterate', '--outcome', 'continue');
    const records = readLedger(loop.root, loop.session).iterations;
    assert.equal(records[0].cost_usd, 0.125);
    assert.deepEqual(
      records.map((r: Record<string, unknown>) =>
        ['cost_usd', 'tokens_in', 'tokens_out'].filter((k) => k in r),
      ),
      [['cost_usd', 'tokens_in', 'tokens_out'], ['tokens_out'], []],
    );
  });

  for (const [flags, message] of SPEND_REFUSALS) {
    it(`refuses ${flags.join(' ')} with exit 2, naming the flag, writing nothing`, () => {
      const loop = loopWith();
      const before = readFileSync(ledgerPath(loop.root, loop.session), 'utf8');
      const r = loop.cli('iterate', '--outcome', 'continue', ...flags);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assertNoStack(r.stderr);
      assert.equal(readFileSync(ledgerPath(loop.root, loop.session), 'utf8'), before);
    });
  }
});

describe('cli: contract caps (cost_limit, token_limit, time_limit)', () => {
  it('open refuses a bad cap naming the field (exit 1), and accepts the three', () => {
    const root = tempRoot();
    const bad = writeJson(
      join(root, 'bad.json'),
      sampleContract({ cost_limit: 0, token_limit: 2.5, time_limit: 'soon' }),
    );
    const r = runCli(['open', '--root', root, '--session', 's', '--contract', bad]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^cost_limit: must be a number greater than 0/m);
    assert.match(r.stderr, /^token_limit: must be a whole number of at least 1/m);
    assert.match(r.stderr, /^time_limit: must be a number greater than 0/m);
    const good = writeJson(
      join(root, 'good.json'),
      sampleContract({ cost_limit: 2.5, token_limit: 1000, time_limit: 3600 }),
    );
    const ok = runCli(['open', '--root', root, '--session', 's', '--contract', good]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(readLedger(root, 's').contract.cost_limit, 2.5);
  });
});

// The cap scenarios (and hostile notes and ids) are shared with the PostgreSQL store's run of the
// same cases (store/pg-cli-parity.test.ts): here they run on the files.
describe('cli: spend, caps and hostile input (the cases shared with the PostgreSQL store)', () => {
  for (const c of STORE_CASES) it(c.name, async () => c.check((await runCase(c, FILES)).results));
});

describe('cli: status and list show spend', () => {
  it('status: session spend and the current epoch against its caps (JSON and one human line)', () => {
    const loop = loopWith({ iteration_limit: 10, cost_limit: 2, token_limit: 5000 });
    loop.cli('iterate', '--outcome', 'continue', '--cost', '0.1', '--tokens-in', '100', '--tokens-out', '20');
    loop.cli('iterate', '--outcome', 'continue', '--cost', '0.2', '--tokens-in', '50');
    const s = loop.cli('status', '--json');
    assert.equal(s.code, 0, s.stderr);
    assert.deepEqual(s.json.spend, { cost_usd: 0.3, tokens_in: 150, tokens_out: 20 });
    assert.deepEqual(s.json.limits, {
      iterations: { spent: 2, cap: 10 },
      cost_usd: { spent: 0.3, cap: 2 },
      tokens: { spent: 170, cap: 5000 },
    });
    const human = loop.cli('status');
    assert.match(
      human.stdout,
      /^spent: \$0\.3, 170 tokens \(150 in, 20 out\); cost 0\.3\/2 USD, tokens 170\/5000$/m,
    );
  });

  it('list: each session with its spend; a ledger without the keys reads as before', () => {
    const loop = loopWith({ iteration_limit: 10 });
    loop.cli('iterate', '--outcome', 'continue', '--cost', '1.25', '--tokens-out', '10');
    const plain = runCli([
      'open',
      '--root',
      loop.root,
      '--session',
      'plain',
      '--contract',
      loop.contractPath,
    ]);
    assert.equal(plain.code, 0, plain.stderr);
    runCli(['iterate', '--root', loop.root, '--session', 'plain', '--outcome', 'continue']);
    const l = runCli(['list', '--root', loop.root, '--json']);
    assert.equal(l.code, 0, l.stderr);
    const by = Object.fromEntries(l.json.sessions.map((s: { session: string }) => [s.session, s]));
    assert.deepEqual(by['sess-1'].spend, { cost_usd: 1.25, tokens_in: 0, tokens_out: 10 });
    assert.deepEqual(by.plain.spend, { cost_usd: 0, tokens_in: 0, tokens_out: 0 });
    const human = runCli(['list', '--root', loop.root]).stdout.split('\n');
    assert.match(
      human.find((line) => line.startsWith('sess-1'))!,
      /\t\$1\.25, 10 tokens \(0 in, 10 out\)$/,
    );
    assert.doesNotMatch(
      human.find((line) => line.startsWith('plain'))!,
      /\$|tokens/,
    );
  });

  it('an original-format ledger (no spend keys, no caps) reads unchanged: zero spend, iterations only', () => {
    const loop = loopWith();
    loop.cli('iterate', '--outcome', 'continue');
    const path = ledgerPath(loop.root, loop.session);
    const before = readFileSync(path, 'utf8');
    const s = loop.cli('status', '--json');
    assert.deepEqual(s.json.spend, { cost_usd: 0, tokens_in: 0, tokens_out: 0 });
    assert.deepEqual(s.json.limits, { iterations: { spent: 1, cap: 5 } });
    assert.doesNotMatch(loop.cli('status').stdout, /spent:/);
    assert.equal(readFileSync(path, 'utf8'), before, 'reading writes nothing');
  });
});
