// What `loop-ledger run` records of its agents' cost and tokens: the shapes agent CLIs print,
// summed over an attempt's agents, and carried onto the attempt's iteration only when reported.
import assert from 'node:assert/strict';
import { addUsage, agentUsage } from '../../../src/engine/run/agent-usage';
import { attemptIteration, type AttemptFacts } from '../../../src/engine/run/ledger-mapping';

const facts = (usage?: AttemptFacts['usage']): AttemptFacts => ({
  runId: 'r1',
  runDir: '.loop/runs/r1',
  attempt: 1,
  withExplorer: false,
  stepsRun: ['coder'],
  changedFiles: [],
  checks: [],
  evidencePaths: [],
  reviewer: null,
  briefId: null,
  terminal: null,
  receiptPath: null,
  measureFailingChecks: false,
  ...(usage ? { usage } : {}),
});

describe('run: agent cost and tokens', () => {
  it('reads Claude Code, OpenAI-style and Loop Ledger shapes; anything else reports nothing', () => {
    assert.deepEqual(agentUsage({ total_cost_usd: 0.12, usage: { input_tokens: 900, output_tokens: 80 } }), {
      cost_usd: 0.12,
      tokens_in: 900,
      tokens_out: 80,
    });
    assert.deepEqual(agentUsage({ usage: { prompt_tokens: 5, completion_tokens: 7 } }), {
      tokens_in: 5,
      tokens_out: 7,
    });
    assert.deepEqual(agentUsage({ cost_usd: 1, tokens_in: 2, tokens_out: 3 }), {
      cost_usd: 1,
      tokens_in: 2,
      tokens_out: 3,
    });
    for (const nothing of [
      undefined,
      null,
      'text',
      [],
      { verdict: 'PASS' },
      { cost_usd: -1, tokens_in: 1.5 },
    ]) {
      assert.deepEqual(agentUsage(nothing), {});
    }
  });

  it('adds the coder’s and the reviewer’s reports key by key', () => {
    assert.deepEqual(addUsage({ cost_usd: 0.1, tokens_in: 10 }, { cost_usd: 0.2 }), {
      cost_usd: 0.3,
      tokens_in: 10,
    });
    assert.deepEqual(addUsage({}, {}), {});
  });

  it('a cost over 2^53 − 1 (what --cost accepts) is not reported; two huge reports never sum to Infinity', () => {
    const largest = Number.MAX_SAFE_INTEGER;
    assert.deepEqual(agentUsage({ total_cost_usd: 1e308, usage: { input_tokens: 5 } }), { tokens_in: 5 });
    assert.deepEqual(agentUsage({ cost_usd: largest + 2 }), {});
    assert.deepEqual(agentUsage({ cost_usd: largest }), { cost_usd: largest });
    const both = addUsage(agentUsage({ cost_usd: 1e308 }), agentUsage({ cost_usd: 1e308 }));
    assert.deepEqual(both, {});
    // The largest reports each side: the sum stops at the largest, and stays a JSON number.
    const capped = addUsage(
      { cost_usd: largest, tokens_in: largest, tokens_out: largest },
      { cost_usd: largest, tokens_in: largest, tokens_out: 1 },
    );
    assert.deepEqual(capped, { cost_usd: largest, tokens_in: largest, tokens_out: largest });
    assert.equal(JSON.parse(JSON.stringify(capped)).cost_usd, largest);
  });

  it('puts the reported keys on the attempt’s iteration input, and none when nothing was reported', () => {
    const reported = attemptIteration(facts({ cost_usd: 0.3, tokens_out: 12 }));
    assert.equal(reported.costUsd, 0.3);
    assert.equal(reported.tokensOut, 12);
    assert.ok(!('tokensIn' in reported));
    const silent = attemptIteration(facts());
    assert.ok(!('costUsd' in silent) && !('tokensIn' in silent) && !('tokensOut' in silent));
  });
});
