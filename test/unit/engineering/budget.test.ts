// Caps read from the contract, spent budgets, reached caps, termination classes, loop statuses.
import assert from 'node:assert/strict';
import { parseCaps, uncountableCaps } from '../../../src/engine/engineering/caps';
import { parseSpent, reachedCaps } from '../../../src/engine/engineering/budget';
import { loopStatusOf } from '../../../src/engine/engineering/loop-status';
import { forcedOutcome, normaliseTermination } from '../../../src/engine/engineering/termination';

const caps = (
  values: Partial<Record<'max iterations' | 'time limit' | 'budget' | 'review budget', string>>,
) => parseCaps({ 'max iterations': '', 'time limit': '', budget: '', 'review budget': '', ...values });

describe('engineering: caps, budgets, termination, loop status', () => {
  it('reads each cap in units the ledger adds up', () => {
    assert.deepEqual(
      caps({
        'max iterations': '4.',
        'time limit': '1.5 hours or 100 minutes',
        budget: '18 tool calls, 50000 tokens and $20',
        'review budget': '800 changed lines and 8 files',
      }),
      { iterations: 4, ms: 5_400_000, calls: 18, tokens: 50000, usd: 20, changed_lines: 800, files: 8 },
    );
  });

  it('leaves a cap it cannot count as null (credits, a time with no unit)', () => {
    const c = caps({ 'time limit': '45', budget: '10 credits', 'review budget': '3 reviews' });
    assert.equal(c.ms, null);
    assert.equal(c.calls, null);
    assert.equal(c.usd, null);
    assert.equal(c.changed_lines, null);
  });

  it('names each cap it cannot count, in field order, and only those', () => {
    const values = (v: Partial<Record<'time limit' | 'budget' | 'review budget', string>>) => ({
      'max iterations': '4',
      'time limit': '35 minutes',
      budget: '18 calls',
      'review budget': '800 changed lines',
      ...v,
    });
    const uncounted = (v: Parameters<typeof values>[0]) =>
      uncountableCaps(values(v), parseCaps(values(v))).map((u) => u.field);
    assert.deepEqual(uncounted({}), []);
    assert.deepEqual(uncounted({ budget: '$20' }), []);
    assert.deepEqual(uncounted({ budget: '5 usd', 'review budget': '3 files' }), []);
    assert.deepEqual(uncounted({ 'time limit': '45' }), ['time limit']);
    assert.deepEqual(uncounted({ budget: '10 credits' }), ['budget']);
    assert.deepEqual(uncounted({ budget: '18 calls, 10 credits' }), ['budget']);
    assert.deepEqual(uncounted({ 'review budget': '1 diff, 400 lines' }), ['review budget']);
    assert.deepEqual(uncounted({ 'time limit': '45', 'review budget': '3 reviews' }), [
      'time limit',
      'review budget',
    ]);
    // An empty cap is the validator's finding (missing field), not this one.
    assert.deepEqual(uncounted({ budget: '' }), []);
  });

  it('reads 1,500 changed lines as fifteen hundred, and unicode digits', () => {
    assert.equal(caps({ 'review budget': '1,500 changed lines' }).changed_lines, 1500);
    assert.equal(caps({ 'max iterations': '٣ attempts' }).iterations, 3);
  });

  it('parses --spent and names each bad value', () => {
    assert.deepEqual(parseSpent(['calls=3', 'calls=2', 'usd=0.25', 'ms=10']), {
      delta: { calls: 5, tokens: 0, usd: 0.25, ms: 10 },
      problems: [],
      outOfRange: [],
    });
    const bad = parseSpent(['calls=-1', 'bytes=3', 'tokens=1.5', 'usd=abc', 'calls']);
    assert.equal(bad.problems.length, 5);
    assert.match(bad.problems[0]!, /^--spent calls=-1: calls must be a whole number/);
    assert.match(bad.problems[1]!, /KIND one of calls, tokens, usd, ms/);
  });

  it('a cap is reached at its amount; a review budget only when the diff goes over it', () => {
    const c = caps({
      'max iterations': '5',
      'time limit': '10 minutes',
      budget: '10 calls and 2 usd',
      'review budget': '100 lines and 2 files',
    });
    const base = {
      caps: c,
      spent: { calls: 0, tokens: 0, usd: 0, ms: 0 },
      elapsed_ms: 0,
      review: null,
      iteration: 1,
    };
    assert.deepEqual(reachedCaps(base), []);
    assert.deepEqual(reachedCaps({ ...base, iteration: 5 }), ['iterations 5/5']);
    assert.deepEqual(reachedCaps({ ...base, elapsed_ms: 600_000 }), ['time 600000/600000 ms']);
    assert.deepEqual(reachedCaps({ ...base, spent: { ...base.spent, ms: 700_000 } }), [
      'time 700000/600000 ms',
    ]);
    assert.deepEqual(reachedCaps({ ...base, spent: { calls: 10, tokens: 0, usd: 2, ms: 0 } }), [
      'calls 10/10',
      'usd 2/2',
    ]);
    assert.deepEqual(reachedCaps({ ...base, review: { changed_lines: 100, files: 2 } }), []);
    assert.deepEqual(reachedCaps({ ...base, review: { changed_lines: 101, files: 3 } }), [
      'changed lines 101/100',
      'files 3/2',
    ]);
  });

  const signals: [string, string, string | null][] = [
    ['end_turn', 'complete', null],
    ['stop', 'complete', null],
    ['tool_use', 'tool_request', null],
    ['tool_calls', 'tool_request', null],
    ['max_tokens', 'truncation', 'pause'],
    ['length', 'truncation', 'pause'],
    ['pause_turn', 'checkpoint', 'pause'],
    ['refusal', 'refusal', 'escalate'],
    ['content_filter', 'refusal', 'escalate'],
    ['error', 'error', 'escalate'],
    ['  End-Turn ', 'complete', null],
    ['finished nicely', 'unknown', 'escalate'],
    ['constructor', 'unknown', 'escalate'],
  ];
  for (const [raw, reason, outcome] of signals) {
    it(`termination ${JSON.stringify(raw)} → ${reason}${outcome ? ` (records ${outcome})` : ''}`, () => {
      const r = normaliseTermination(raw);
      assert.equal(r, reason);
      assert.equal(forcedOutcome(r), outcome);
    });
  }

  const statuses: [string, Parameters<typeof loopStatusOf>, string | null][] = [
    [
      'budget stop',
      [
        { outcome: 'stop', stall: 'budget-stop', decision: null },
        { noOp: false, termination: null },
      ],
      'BUDGET_STOP',
    ],
    [
      'a quiet iteration at the cap still stops',
      [
        { outcome: 'stop', stall: 'budget-stop', decision: null },
        { noOp: true, termination: null },
      ],
      'BUDGET_STOP',
    ],
    [
      'NO_OP',
      [
        { outcome: 'continue', stall: null, decision: null },
        { noOp: true, termination: null },
      ],
      'NO_OP',
    ],
    [
      'complete',
      [
        { outcome: 'complete', stall: null, decision: null },
        { noOp: false, termination: null },
      ],
      'success',
    ],
    [
      'escalate',
      [
        { outcome: 'escalate', stall: 'repeated-error', decision: null },
        { noOp: false, termination: null },
      ],
      'NO_PROGRESS',
    ],
    [
      'pause for permission',
      [
        { outcome: 'pause', stall: null, decision: null },
        { noOp: false, termination: null },
      ],
      'BLOCKED_PERMISSION',
    ],
    [
      'pause for truncation',
      [
        { outcome: 'pause', stall: null, decision: null },
        { noOp: false, termination: 'truncation' },
      ],
      null,
    ],
    [
      'revert',
      [
        { outcome: 'continue', stall: null, decision: 'revert' },
        { noOp: false, termination: null },
      ],
      'VERIFY_FAILED',
    ],
    [
      'revise',
      [
        { outcome: 'revise', stall: null, decision: null },
        { noOp: false, termination: null },
      ],
      'VERIFY_FAILED',
    ],
    [
      'circular state',
      [
        { outcome: 'revise', stall: 'circular-state', decision: null },
        { noOp: false, termination: null },
      ],
      'NO_PROGRESS',
    ],
    [
      'continue',
      [
        { outcome: 'continue', stall: null, decision: 'retain' },
        { noOp: false, termination: null },
      ],
      null,
    ],
  ];
  for (const [name, args, expected] of statuses) {
    it(`loop_status: ${name} → ${expected}`, () => assert.equal(loopStatusOf(...args), expected));
  }
});
