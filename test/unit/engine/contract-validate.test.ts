import assert from 'node:assert/strict';
import { z } from 'zod';
import { CONTRACT_FIELDS, contractSchema, formatPath, validateContract } from '../../../src/engine/contract';
import { LIMIT_FIELDS } from '../../../src/engine/spend';
import type { Finding } from '../../../src/engine/types';

const KNOWN = new Set(['bash', 'ls', 'wc', 'npm', 'grep']);
const resolve = (word: string) => KNOWN.has(word);

function dimension(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    dimension: 'failing-tests',
    evidence_command: 'npm test 2>&1 | grep -c failing',
    baseline: 10,
    target: 0,
    weight: 20,
    failure_threshold: 12,
    direction: 'lower-is-better',
    hard_gate: true,
    ...overrides,
  };
}

function contract(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    purpose: 'Make the test suite pass',
    owner: 'agent',
    starting_state: 'ten failing tests on main',
    inputs: ['test/', 'src/'],
    expected_outputs: ['a green suite'],
    success_criteria: ['npm test exits 0'],
    failure_criteria: 'a test is deleted to make it pass',
    dependencies: ['npm registry'],
    iteration_limit: 5,
    timeout_behaviour: 'stop and record what was achieved',
    escalation_path: 'the lead',
    quality_rubric: [
      dimension(),
      dimension({
        dimension: 'coverage',
        evidence_command: 'ls coverage | wc -l',
        baseline: 0,
        target: 100,
        weight: 80,
        failure_threshold: 0,
        direction: 'higher-is-better',
        hard_gate: false,
      }),
    ],
    ...overrides,
  };
}

function findings(raw: unknown): Finding[] {
  const result = validateContract(raw, resolve);
  return result.ok ? [] : result.findings;
}
const codes = (raw: unknown) => findings(raw).map((f) => f.code);
const rubric = (...entries: unknown[]) => contract({ quality_rubric: entries });

describe('contract: validateContract', () => {
  it('accepts a good contract and returns exactly its twelve fields', () => {
    const result = validateContract(contract(), resolve);
    assert.equal(result.ok, true);
    assert.ok(result.ok);
    assert.deepEqual(Object.keys(result.contract), [...CONTRACT_FIELDS]);
    assert.equal(result.contract.quality_rubric[1]!.dimension, 'coverage');
    assert.equal(result.contract.iteration_limit, 5);
  });

  it('refuses anything that is not a JSON object', () => {
    for (const raw of [[], 'x', 3, null, true, undefined, new Date()]) {
      const f = findings(raw);
      assert.equal(f.length, 1);
      assert.equal(f[0]!.code, 'not-an-object');
      assert.deepEqual(f[0]!.path, []);
      assert.match(f[0]!.message, /^contract: expected a JSON object/);
    }
  });

  it('reports every missing field, then every unknown field (sorted), then per-field problems', () => {
    const raw = contract({ zeta: 1, alpha: 2, purpose: '  ' });
    delete raw.owner;
    delete raw.dependencies;
    const f = findings(raw);
    assert.deepEqual(
      f.map((x) => [x.code, x.path]),
      [
        ['missing-field', ['owner']],
        ['missing-field', ['dependencies']],
        ['unknown-field', ['alpha']],
        ['unknown-field', ['zeta']],
        ['empty-field', ['purpose']],
      ],
    );
    assert.match(f[0]!.message, /^owner: missing/);
    assert.match(f[2]!.message, /^alpha: not one of the twelve/);
  });

  it('takes the optional checkpoint switch as a boolean, keeps it, and refuses any other value', () => {
    const on = validateContract(contract({ checkpoint: true }), resolve);
    assert.ok(on.ok);
    assert.equal(on.contract.checkpoint, true);
    const without = validateContract(contract(), resolve);
    assert.ok(without.ok);
    assert.equal(Object.hasOwn(without.contract, 'checkpoint'), false);
    const f = findings(contract({ checkpoint: 'yes' }));
    assert.deepEqual(
      f.map((x) => [x.code, x.path]),
      [['bad-switch', ['checkpoint']]],
    );
    assert.match(f[0]!.message, /^checkpoint: must be true or false/);
  });

  it('reports all twelve missing fields of an empty object', () => {
    assert.deepEqual(codes({}), Array(12).fill('missing-field'));
  });

  it('refuses a __proto__ key as an unknown field without touching the prototype', () => {
    const raw: unknown = JSON.parse(
      JSON.stringify(contract()).replace(/^\{/, '{"__proto__":{"polluted":true},'),
    );
    const f = findings(raw);
    assert.deepEqual(
      f.map((x) => [x.code, x.path]),
      [['unknown-field', ['__proto__']]],
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const entry: unknown = JSON.parse('{"__proto__": 1}');
    const inRubric = rubric({ ...dimension(), ...(entry as object) });
    assert.deepEqual(
      findings(inRubric).map((x) => [x.code, x.path]),
      [['unknown-key', ['quality_rubric', 0, '__proto__']]],
    );
  });

  it('does not read inherited properties as fields', () => {
    const raw = Object.create({ purpose: 'inherited' }) as Record<string, unknown>;
    Object.assign(raw, contract());
    delete raw.purpose;
    // A prototype other than Object.prototype is not a plain JSON object.
    assert.deepEqual(codes(raw), ['not-an-object']);
    const plain = contract();
    delete plain.purpose;
    assert.deepEqual(codes(plain), ['missing-field']);
  });

  describe('iteration_limit', () => {
    it('accepts whole numbers ≥ 1', () => {
      for (const n of [1, 2, 1000]) assert.deepEqual(codes(contract({ iteration_limit: n })), []);
    });
    it('refuses zero, negatives, floats, strings, booleans and non-finite numbers', () => {
      for (const bad of [0, -1, 1.5, '3', true, false, Infinity, NaN, [3], {}]) {
        const f = findings(contract({ iteration_limit: bad }));
        assert.deepEqual(
          f.map((x) => [x.code, x.path]),
          [['bad-iteration-limit', ['iteration_limit']]],
          String(bad),
        );
      }
    });
  });

  describe('other fields', () => {
    it('refuses empty and whitespace-only text', () => {
      for (const bad of ['', '   ', '\t\n', '\u3000']) {
        assert.deepEqual(codes(contract({ owner: bad })), ['empty-field']);
      }
    });
    it('refuses an empty list and each blank item of a list', () => {
      assert.deepEqual(
        findings(contract({ inputs: [] })).map((x) => x.path),
        [['inputs']],
      );
      const f = findings(contract({ inputs: ['a', ' ', 'b', ''] }));
      assert.deepEqual(
        f.map((x) => [x.code, x.path]),
        [
          ['empty-field', ['inputs', 1]],
          ['empty-field', ['inputs', 3]],
        ],
      );
      assert.match(f[0]!.message, /^inputs\[1\]: blank item/);
    });
    it('accepts non-blank values of any other kind, as the original does', () => {
      for (const ok of [0, false, true, 3.5, {}, { a: 1 }, [0], [false], [[]], [{}]]) {
        assert.deepEqual(codes(contract({ starting_state: ok })), [], JSON.stringify(ok));
      }
    });
    it('refuses null (Loop Ledger deviation), for every field', () => {
      for (const field of CONTRACT_FIELDS) {
        const f = findings(contract({ [field]: null }));
        assert.deepEqual(
          f.map((x) => [x.code, x.path]),
          [['null-field', [field]]],
          field,
        );
      }
    });
    it('refuses a non-finite number (Loop Ledger deviation)', () => {
      assert.deepEqual(codes(contract({ owner: Infinity })), ['not-finite']);
    });
    it('survives deeply nested values', () => {
      let deep: unknown = 'x';
      for (let i = 0; i < 100_000; i++) deep = [deep];
      assert.deepEqual(codes(contract({ starting_state: deep, inputs: [deep] })), []);
      assert.deepEqual(codes(rubric(dimension({ evidence_command: deep, baseline: deep }))), [
        'program-not-found',
        'not-a-number',
      ]);
      assert.deepEqual(codes(rubric(dimension({ dimension: deep }))), []);
    });
  });

  describe('quality_rubric', () => {
    it('must be a list', () => {
      for (const bad of ['x', 3, { a: 1 }, true]) {
        assert.deepEqual(
          findings(contract({ quality_rubric: bad })).map((x) => [x.code, x.path]),
          [['rubric-not-list', ['quality_rubric']]],
        );
      }
    });
    it('must not be empty', () => {
      assert.deepEqual(codes(contract({ quality_rubric: [] })), ['empty-rubric']);
    });
    it('(a) refuses an entry that is not an object, and goes on to the next', () => {
      const f = findings(rubric('x', [1], dimension({ weight: 0 })));
      assert.deepEqual(
        f.map((x) => [x.code, x.path]),
        [
          ['dimension-not-object', ['quality_rubric', 0]],
          ['dimension-not-object', ['quality_rubric', 1]],
          ['non-positive-weight', ['quality_rubric', 2, 'weight']],
        ],
      );
    });
    it('(b) reports every missing and unknown key together, then stops the entry', () => {
      const entry = dimension({ extra: 1, another: 2, direction: 'up' });
      delete entry.weight;
      delete entry.hard_gate;
      const f = findings(rubric(entry));
      assert.deepEqual(
        f.map((x) => [x.code, x.path]),
        [
          ['missing-key', ['quality_rubric', 0, 'weight']],
          ['missing-key', ['quality_rubric', 0, 'hard_gate']],
          ['unknown-key', ['quality_rubric', 0, 'another']],
          ['unknown-key', ['quality_rubric', 0, 'extra']],
        ],
      );
      assert.match(f[0]!.message, /^quality_rubric\[0\]\.weight: missing/);
    });
    it('(b) must_not_regress may be absent; its absence is not a missing key', () => {
      assert.deepEqual(codes(rubric(dimension())), []);
    });
    it('(c) refuses an empty name, then stops the entry', () => {
      for (const name of ['', '  ', null, 0, false, []]) {
        const f = findings(rubric(dimension({ dimension: name, direction: 'up' })));
        assert.deepEqual(
          f.map((x) => [x.code, x.path]),
          [['empty-dimension-name', ['quality_rubric', 0, 'dimension']]],
          JSON.stringify(name),
        );
      }
    });
    it('(d) refuses a duplicate name (compared after trimming), then stops the entry', () => {
      const f = findings(rubric(dimension(), dimension({ dimension: ' failing-tests ', weight: -1 })));
      assert.deepEqual(
        f.map((x) => [x.code, x.path]),
        [['duplicate-dimension', ['quality_rubric', 1, 'dimension']]],
      );
    });
    it('(d) a refused entry does not claim its name', () => {
      assert.deepEqual(codes(rubric('x', dimension())), ['dimension-not-object']);
      const bad = dimension();
      delete bad.weight;
      assert.deepEqual(codes(rubric(bad, dimension())), ['missing-key']);
    });
    it('(e) collects every value problem of the entry, in order', () => {
      const f = findings(
        rubric(
          dimension({
            evidence_command: 'nope --root R',
            baseline: '10',
            target: true,
            weight: null,
            failure_threshold: Infinity,
            hard_gate: 'yes',
            must_not_regress: 'no',
            direction: 'up',
          }),
        ),
      );
      const at = (key: string) => ['quality_rubric', 0, key];
      assert.deepEqual(
        f.map((x) => [x.code, x.path]),
        [
          ['placeholder', at('evidence_command')],
          ['program-not-found', at('evidence_command')],
          ['not-a-number', at('baseline')],
          ['not-a-number', at('target')],
          ['not-a-number', at('weight')],
          ['not-finite', at('failure_threshold')],
          ['not-boolean', at('hard_gate')],
          ['not-boolean', at('must_not_regress')],
          ['bad-direction', at('direction')],
        ],
      );
      assert.equal(
        f[8]!.message,
        'quality_rubric[0].direction: must be "higher-is-better" or "lower-is-better", got "up"',
      );
      assert.match(
        f[0]!.message,
        /^quality_rubric\[0\]\.evidence_command: carries an unresolved placeholder/,
      );
    });
    it('(e) blank evidence command', () => {
      for (const blank of ['', '   ', null]) {
        assert.deepEqual(
          findings(rubric(dimension({ evidence_command: blank }))).map((x) => [x.code, x.path]),
          [['blank-evidence-command', ['quality_rubric', 0, 'evidence_command']]],
        );
      }
    });
    it('(e) an unparsable command is reported and the other value checks still run', () => {
      assert.deepEqual(codes(rubric(dimension({ evidence_command: "ls 'x", hard_gate: 1 }))), [
        'unparsable-command',
        'not-boolean',
      ]);
    });
    it("(e) the commands the original work loop's tests accept pass (upper-case flag value, pipe, script, env prefix)", () => {
      for (const command of [
        'npm run x --format JSON',
        'ls src | wc -l',
        'bash scripts/measure.sh',
        'LC_ALL=C bash script.sh',
      ]) {
        assert.deepEqual(codes(rubric(dimension({ evidence_command: command }))), [], command);
      }
    });
    it('(e) stops the entry before the weight and direction checks', () => {
      assert.deepEqual(codes(rubric(dimension({ hard_gate: 'true', weight: 0, target: 10 }))), [
        'not-boolean',
      ]);
    });
    it('(f) refuses a weight ≤ 0, then stops the entry', () => {
      for (const weight of [0, -0, -5]) {
        assert.deepEqual(
          findings(rubric(dimension({ weight, target: 10 }))).map((x) => [x.code, x.path]),
          [['non-positive-weight', ['quality_rubric', 0, 'weight']]],
        );
      }
    });
    it('(g) refuses target == baseline unless must_not_regress', () => {
      assert.deepEqual(
        findings(rubric(dimension({ target: 10 }))).map((x) => [x.code, x.path]),
        [['target-equals-baseline', ['quality_rubric', 0, 'target']]],
      );
      assert.deepEqual(codes(rubric(dimension({ target: 10, must_not_regress: false }))), [
        'target-equals-baseline',
      ]);
      assert.deepEqual(codes(rubric(dimension({ target: 10, must_not_regress: true }))), []);
    });
    it('(g) must_not_regress requires target == baseline and skips the direction check', () => {
      assert.deepEqual(
        findings(rubric(dimension({ target: 3, must_not_regress: true }))).map((x) => [x.code, x.path]),
        [['must-not-regress-target', ['quality_rubric', 0, 'target']]],
      );
      for (const direction of ['higher-is-better', 'lower-is-better']) {
        assert.deepEqual(
          codes(rubric(dimension({ baseline: 0, target: 0, direction, must_not_regress: true }))),
          [],
        );
      }
    });
    it('(g) the direction must agree with baseline → target', () => {
      assert.deepEqual(
        findings(rubric(dimension({ direction: 'higher-is-better' }))).map((x) => [x.code, x.path]),
        [['direction-disagrees', ['quality_rubric', 0, 'direction']]],
      );
      assert.deepEqual(codes(rubric(dimension({ baseline: 0, target: 5, direction: 'lower-is-better' }))), [
        'direction-disagrees',
      ]);
      assert.deepEqual(
        codes(rubric(dimension({ baseline: 0, target: 5, direction: 'higher-is-better' }))),
        [],
      );
    });
    it('reports problems of every entry, each entry stopping at its own stage', () => {
      const f = findings(
        rubric(
          dimension({ dimension: 'a', weight: 0 }),
          dimension({ dimension: 'b', direction: 'sideways' }),
          dimension({ dimension: 'c', target: 10 }),
          dimension({ dimension: 'a' }),
        ),
      );
      assert.deepEqual(
        f.map((x) => x.code),
        ['non-positive-weight', 'bad-direction', 'target-equals-baseline', 'duplicate-dimension'],
      );
    });
    it('reports rubric findings after every other field’s', () => {
      const raw = contract({ quality_rubric: [dimension({ weight: 0 })], owner: '', iteration_limit: 0 });
      assert.deepEqual(codes(raw), ['empty-field', 'bad-iteration-limit', 'non-positive-weight']);
    });
    it('keeps only the declared keys of a valid dimension', () => {
      const result = validateContract(rubric(dimension({ target: 10, must_not_regress: true })), resolve);
      assert.ok(result.ok);
      assert.deepEqual(Object.keys(result.contract.quality_rubric[0]!).sort(), [
        'baseline',
        'dimension',
        'direction',
        'evidence_command',
        'failure_threshold',
        'hard_gate',
        'must_not_regress',
        'target',
        'weight',
      ]);
    });
  });

  it('gives every finding a one-line message that starts with its formatted path, and a code', () => {
    const raw = contract({ bogus: 1, inputs: [' '], quality_rubric: ['x', dimension({ direction: 'up' })] });
    delete raw.owner;
    for (const f of findings(raw)) {
      assert.ok(f.code && /^[a-z]+(-[a-z]+)*$/.test(f.code), f.code);
      assert.ok(f.path);
      assert.ok(f.message.startsWith(`${formatPath(f.path)}: `), f.message);
      assert.doesNotMatch(f.message, /\n/);
    }
  });

  it('formats paths', () => {
    assert.equal(formatPath(['quality_rubric', 1, 'direction']), 'quality_rubric[1].direction');
    assert.equal(formatPath(['a b']), '["a b"]');
    assert.equal(formatPath([]), 'contract');
  });
});

describe('contract: zod schema', () => {
  it('generates a draft-07 JSON schema with the twelve required properties and the optional caps', () => {
    const schema = z.toJSONSchema(contractSchema, { target: 'draft-7', io: 'input' }) as Record<
      string,
      unknown
    >;
    assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
    assert.deepEqual(
      Object.keys(schema.properties as object).filter(
        (k) => !LIMIT_FIELDS.includes(k as never) && k !== 'checkpoint',
      ),
      [...CONTRACT_FIELDS],
    );
    assert.deepEqual(
      Object.keys(schema.properties as object).filter((k) => LIMIT_FIELDS.includes(k as never)),
      [...LIMIT_FIELDS],
    );
    assert.deepEqual([...(schema.required as string[])].sort(), [...CONTRACT_FIELDS].sort());
    assert.equal(schema.additionalProperties, false);
    const rubricItems = (schema.properties as Record<string, { items: Record<string, unknown> }>)
      .quality_rubric!.items;
    assert.equal((rubricItems.required as string[]).length, 8);
    assert.ok(!(rubricItems.required as string[]).includes('must_not_regress'));
    assert.equal(
      typeof (schema.properties as Record<string, { markdownDescription?: string }>).purpose!
        .markdownDescription,
      'string',
    );
  });

  it('accepts the same good contract the validator accepts', () => {
    assert.equal(contractSchema.safeParse(contract()).success, true);
    assert.equal(contractSchema.safeParse(contract({ extra: 1 })).success, false);
  });
});
