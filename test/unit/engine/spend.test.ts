// The spend values `iterate` accepts and the caps that end a loop (pure; the CLI tests drive the same rules).
import assert from 'node:assert/strict';
import { addSpend, noSpend, parseSpendValue, reachedLimit } from '../../../src/engine/spend';

describe('engine: spend', () => {
  it('parses plain decimals and whole token counts up to 2^53 − 1', () => {
    assert.deepEqual(parseSpendValue('--cost', '0.25', false), { value: 0.25 });
    assert.deepEqual(parseSpendValue('--cost', '.5', false), { value: 0.5 });
    assert.deepEqual(parseSpendValue('--tokens-in', '9007199254740991', true), { value: 9007199254740991 });
    assert.match(
      (parseSpendValue('--tokens-in', '9007199254740992', true) as { problem: string }).problem,
      /too large/,
    );
    for (const bad of ['', '-1', 'NaN', '1,5', '0x10', ' ']) {
      assert.ok('problem' in parseSpendValue('--cost', bad, false), bad);
    }
    assert.ok('problem' in parseSpendValue('--tokens-out', '1e3', true));
  });

  it('sums dollars without float drift', () => {
    assert.equal(addSpend(addSpend(noSpend(), { cost_usd: 0.1 }), { cost_usd: 0.2 }).cost_usd, 0.3);
  });

  it('names the first cap reached, cost before tokens before time', () => {
    const spent = { cost_usd: 2, tokens_in: 600, tokens_out: 400 };
    assert.equal(
      reachedLimit({ cost_limit: 2, token_limit: 1000, time_limit: 10 }, spent, 20)?.name,
      'cost-exhausted',
    );
    assert.equal(reachedLimit({ token_limit: 1000, time_limit: 10 }, spent, 20)?.name, 'tokens-exhausted');
    assert.equal(reachedLimit({ time_limit: 10 }, spent, 20)?.name, 'time-exhausted');
    assert.equal(reachedLimit({ time_limit: 10 }, spent, null), null);
    assert.equal(reachedLimit({ cost_limit: 2.01 }, spent, 0), null);
    assert.equal(reachedLimit({}, spent, 1e9), null);
  });
});
