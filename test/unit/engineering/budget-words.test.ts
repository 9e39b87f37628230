import assert from 'node:assert/strict';
import { budgetWords, tightestBudget } from '../../../src/shared/budget-words';

describe('engineering: budget words (status, status bar, tooltip)', () => {
  const budget = {
    iterations: { spent: 2, cap: 4 },
    time_ms: { spent: 90_500, cap: 2_100_000 },
    calls: { spent: 15, cap: 18 },
    tokens: { spent: 10, cap: null },
  };
  it('lists each enforced cap as spent/cap, time in h/m/s', () => {
    assert.equal(budgetWords(budget), '; budget iterations 2/4, time 1m31s/35m, calls 15/18');
    assert.equal(budgetWords(undefined), '');
  });
  it('names the cap nearest to being reached', () => {
    assert.equal(tightestBudget(budget), 'calls 15/18');
    assert.equal(tightestBudget({ tokens: { spent: 1, cap: null } }), '');
  });
});
