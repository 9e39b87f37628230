// The loop-engineering rules: each alone, the original's own test cases, its quirks, the three
// deliberate differences, combinations and the report order.
import assert from 'node:assert/strict';
import { checkEngineeringMarkdown } from '../../../src/engine/engineering/check';
import { REQUIRED_FIELDS, snakeKey } from '../../../src/engine/engineering/fields';
import { contractText } from './helpers';

const check = (overrides: Record<string, string | null>, strict = true) =>
  checkEngineeringMarkdown(contractText(overrides), strict).findings;
const messages = (overrides: Record<string, string | null>, strict = true): string[] =>
  check(overrides, strict).map((f) => f.message);
const codes = (overrides: Record<string, string | null>, strict = true): string[] =>
  check(overrides, strict).map((f) => f.code);

describe('engineering: contract rules', () => {
  it('the valid contract passes strict', () => assert.deepEqual(messages({}), []));

  describe('each rule alone', () => {
    const rows: [string, Record<string, string | null>, string, string][] = [
      [
        'absent objective',
        { objective: null },
        'missing-field:objective',
        'missing or empty field: objective',
      ],
      ['TBD owner', { owner: 'TBD' }, 'missing-field:owner', 'missing or empty field: owner'],
      ['N/A scope', { scope: 'n/a' }, 'missing-field:scope', 'missing or empty field: scope'],
      [
        'bad mode',
        { mode: 'Sprint' },
        'invalid-mode',
        'mode must be Goal, Loop, Automation, or AutoResearch',
      ],
      [
        'bad topology',
        { topology: 'swarm' },
        'invalid-topology',
        'topology must be single-agent, maker-checker, or manager-workers',
      ],
      [
        'unbounded iterations',
        { 'max iterations': 'unlimited' },
        'cap-not-finite:max_iterations',
        'max iterations must contain a finite numeric cap',
      ],
      [
        'no number in time',
        { 'time limit': 'a while' },
        'cap-not-finite:time_limit',
        'time limit must contain a finite numeric cap',
      ],
      [
        'zero budget',
        { budget: '0 calls' },
        'cap-not-positive:budget',
        'budget must contain a positive finite numeric cap',
      ],
      [
        'negative review',
        { 'review budget': '-5 changed lines' },
        'cap-not-positive:review_budget',
        'review budget must contain a positive finite numeric cap',
      ],
      [
        'strict review ceiling',
        { 'review budget': '1200 changed lines' },
        'review-budget-over-1000',
        'review budget should cap changed lines at 1000 or less',
      ],
      [
        'vague stop',
        { 'stop condition': 'Keep improving the code' },
        'vague-stop-condition',
        'stop condition must be an evidence-based result or finite cap',
      ],
      [
        'self verifier',
        { verifier: 'The builder checks itself' },
        'self-verifier',
        'verifier cannot be the builder alone',
      ],
      [
        'risky boundary',
        { 'permission boundary': 'May deploy to production' },
        'risky-boundary-needs-approval-rollback',
        'external or production boundary requires approval and rollback',
      ],
      [
        'manager-workers without gate',
        { topology: 'manager-workers' },
        'manager-workers-needs-integration-gate',
        'manager-workers requires an explicit integration gate in recovery or permission boundary',
      ],
      [
        'automation without event trigger',
        { mode: 'Automation', trigger: 'Whenever I remember' },
        'automation-needs-event-trigger',
        'automation mode requires a schedule, webhook, event, queue, CI, PR, or timer trigger',
      ],
    ];
    for (const [name, overrides, code, message] of rows) {
      it(name, () => {
        const found = check(overrides);
        assert.deepEqual(
          found.map((f) => [f.code, f.message]),
          [[code, message]],
        );
      });
    }
  });

  it('every required field has its own missing-field code, in alphabetical order', () => {
    const none = Object.fromEntries(REQUIRED_FIELDS.map((f) => [f, null]));
    const found = check(none, false);
    const sorted = [...REQUIRED_FIELDS].sort();
    assert.deepEqual(
      found.map((f) => f.code),
      sorted.map((f) => `missing-field:${snakeKey(f)}`),
    );
    assert.deepEqual(
      found.map((f) => f.line),
      sorted.map(() => null),
    );
  });

  it('strict-only rules are not reported without --strict, and are marked strict', () => {
    const overrides = { topology: 'manager-workers', 'review budget': '5000 lines' };
    assert.deepEqual(codes(overrides, false), []);
    assert.deepEqual(
      check(overrides).map((f) => [f.code, f.strict]),
      [
        ['review-budget-over-1000', true],
        ['manager-workers-needs-integration-gate', true],
      ],
    );
  });

  describe("the original's own test cases", () => {
    for (const [field, value] of [
      ['max iterations', '0'],
      ['time limit', '-1 minutes'],
      ['budget', '0 calls'],
      ['review budget', '-5 changed lines'],
    ]) {
      it(`non-positive cap: ${field} = ${value}`, () =>
        assert.ok(
          messages({ [field as string]: value as string }).includes(
            `${field} must contain a positive finite numeric cap`,
          ),
        ));
    }
    for (const value of [
      '4 iterations; otherwise unlimited',
      '4 iterations; otherwise indefinitely',
      '4 iterations; no upper bound',
      '4 iterations; repeat as long as needed',
    ]) {
      it(`unbounded fallback after a positive cap: ${value}`, () =>
        assert.ok(
          messages({ 'max iterations': value }).includes('max iterations must contain a finite numeric cap'),
        ));
    }
    it('a zero for an unrelated unit does not count', () =>
      assert.deepEqual(messages({ budget: '0 retries, 20 tool calls' }), []));
    it('an incidental "integration" is no integration gate', () =>
      assert.deepEqual(
        codes({
          topology: 'manager-workers',
          recovery: 'Retry failed worker output after integration test evidence is collected.',
        }),
        ['manager-workers-needs-integration-gate'],
      ));
    it('an explicit integration gate passes', () =>
      assert.deepEqual(
        messages({
          topology: 'manager-workers',
          recovery: 'Integration gate: the manager verifies the merged diff and tests before completion.',
        }),
        [],
      ));
  });

  describe("the original's quirks, kept", () => {
    const rows: [string, Record<string, string | null>, string[]][] = [
      [
        '"self-hosted runner" counts as self-verification',
        { verifier: 'CI on a self-hosted runner' },
        ['self-verifier'],
      ],
      ['"the suite itself" counts as self-verification', { verifier: 'the suite itself' }, ['self-verifier']],
      [
        '"Max iterations: none" yields two findings',
        { 'max iterations': 'none' },
        ['missing-field:max_iterations', 'cap-not-finite:max_iterations'],
      ],
      [
        'an unfilled template mode fails the mode check',
        { mode: 'Goal | Loop | Automation | AutoResearch' },
        ['invalid-mode'],
      ],
      ['"TBD." is not empty (exact match only)', { owner: 'TBD.' }, []],
      [
        'a trailing dot is dropped from mode and topology',
        { mode: 'loop...', topology: 'maker-checker.' },
        [],
      ],
      ['mode aliases', { mode: 'Scheduled loop', trigger: 'cron at 02:00' }, []],
      ['"Time limit: 45" passes without a unit', { 'time limit': '45' }, []],
      ['"Budget: $20" passes', { budget: '$20' }, []],
      ['units choose which numbers count', { budget: '0 retries and 5 usd' }, []],
      ['no unit: every number counts', { budget: 'between 0 and 5' }, ['cap-not-positive:budget']],
      [
        '"without a hard cap" is unbounded',
        { 'time limit': '30 minutes without a hard cap' },
        ['cap-not-finite:time_limit'],
      ],
      ['"open-ended" is unbounded', { budget: 'open-ended, 5 calls' }, ['cap-not-finite:budget']],
      [
        'infinite in the stop condition is vague',
        { 'stop condition': 'infinite polish' },
        ['vague-stop-condition'],
      ],
      ['denied production needs nothing', { 'permission boundary': 'not production or shared' }, []],
      [
        'approval and rollback satisfy a risky boundary',
        { 'permission boundary': 'Publish with approval and rollback plan' },
        [],
      ],
      [
        '"integration gate" across recovery and boundary counts (joined with a space)',
        {
          topology: 'manager-workers',
          recovery: 'merge at the integration',
          'permission boundary': 'gate is local only',
        },
        [],
      ],
      [
        'automation needs a whole trigger word',
        { mode: 'Automation', trigger: 'prompt circus' },
        ['automation-needs-event-trigger'],
      ],
      ['automation with a PR trigger passes', { mode: 'automation', trigger: 'on every PR' }, []],
      [
        'unicode digits are numbers',
        { 'max iterations': '٤ iterations', budget: '０ calls' },
        ['cap-not-positive:budget'],
      ],
      [
        'a number glued to a word does not count',
        { 'max iterations': 'v2' },
        ['cap-not-finite:max_iterations'],
      ],
    ];
    for (const [name, overrides, expected] of rows)
      it(name, () => assert.deepEqual(codes(overrides), expected));
  });

  describe('three deliberate differences: stricter about risk than the original', () => {
    it('"1,500 changed lines" is read as fifteen hundred under --strict', () =>
      assert.deepEqual(codes({ 'review budget': '1,500 changed lines' }), ['review-budget-over-1000']));
    it('"1,000 changed lines" is still refused as the original refuses it (the "000" counts as zero)', () =>
      assert.deepEqual(codes({ 'review budget': '1,000 changed lines' }), [
        'cap-not-positive:review_budget',
      ]));
    it('one negation does not excuse a risky word in another clause', () =>
      assert.deepEqual(codes({ 'permission boundary': 'no push; deploy to production allowed' }), [
        'risky-boundary-needs-approval-rollback',
      ]));
    it('a negation still excuses the risky words of its own clause', () =>
      assert.deepEqual(
        codes({ 'permission boundary': 'Local-only; no production or external changes' }),
        [],
      ));
    it('"deployment" is a risky word', () =>
      assert.deepEqual(codes({ 'permission boundary': 'deployment to staging' }), [
        'risky-boundary-needs-approval-rollback',
      ]));
  });

  it('reports in the original order, each on its own line', () => {
    const found = check({
      owner: 'tbd',
      mode: 'Automation',
      trigger: 'by hand',
      topology: 'manager-workers',
      'max iterations': 'forever',
      'review budget': '5000 lines',
      'stop condition': 'until satisfied',
      verifier: 'self review',
      'permission boundary': 'publish',
    });
    assert.deepEqual(
      found.map((f) => f.code),
      [
        'missing-field:owner',
        'cap-not-finite:max_iterations',
        'review-budget-over-1000',
        'vague-stop-condition',
        'self-verifier',
        'risky-boundary-needs-approval-rollback',
        'manager-workers-needs-integration-gate',
        'automation-needs-event-trigger',
      ],
    );
    const lines = contractText({}).split('\n');
    const lineOf = (name: string) => lines.findIndex((l) => l.startsWith(name)) + 1;
    assert.equal(found[0]!.line, lineOf('Owner:'));
    assert.equal(found[0]!.field, 'owner');
    assert.equal(found.at(-1)!.field, 'trigger');
  });

  it('CRLF and LF give the same findings', () => {
    const overrides = { verifier: 'self', budget: '0 calls' };
    const lf = checkEngineeringMarkdown(contractText(overrides, '\n'), true).findings;
    const crlf = checkEngineeringMarkdown(contractText(overrides, '\r\n'), true).findings;
    assert.deepEqual(crlf, lf);
  });

  it('a BOM before the first field refuses it as the original does, with a hint', () => {
    const text = `\ufeff${contractText({}).replace('# Loop contract\n\n', '')}`;
    const found = checkEngineeringMarkdown(text, true).findings;
    assert.deepEqual(
      found.map((f) => f.code),
      ['missing-field:objective'],
    );
    assert.equal(found[0]!.line, 1);
    assert.match(found[0]!.hint ?? '', /byte-order mark/);
  });
});
