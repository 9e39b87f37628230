// The ledger shape table compiled into plain functions (shape-spec.ts) must let through exactly
// the ledgers its interpreter (ledger-shape.ts) lets through: a ledger with any one value
// changed gets the same verdict, word for word, with the compiled form on and off.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { clearPlainPieces, usePlainPieces } from '../../../src/engine/plain-pieces';
import { COMPILED_FROM_RECORDS, ledgerShapeProblem } from '../../../src/store/ledger-shape';
import { compileSpec, OBJECT, STRING } from '../../../src/store/shape-spec';
import { sampleLedger } from './fixtures/sample-ledger';

/** A rich ledger: a judged record, epochs, a rubric, provenance, a pending brief. */
function richLedger(): Record<string, unknown> {
  const ledger = JSON.parse(JSON.stringify(sampleLedger('s1', COMPILED_FROM_RECORDS))) as Record<
    string,
    unknown
  >;
  const contract = ledger.contract as Record<string, unknown>;
  const records = ledger.iterations as Record<string, unknown>[];
  const judged = records[1] as Record<string, unknown>;
  contract.quality_rubric = [
    {
      dimension: 'coverage',
      evidence_command: 'echo 1',
      baseline: 50,
      target: 80,
      weight: 1,
      failure_threshold: 40,
      direction: 'higher-is-better',
      hard_gate: true,
      must_not_regress: false,
    },
  ];
  judged.evaluation = {
    dimensions: [
      {
        dimension: 'coverage',
        measured: 60,
        score: 0.5,
        weight: 1,
        hard_gate: true,
        gate_failed: false,
        must_not_regress: false,
        failure_threshold: 40,
        evidence_command: 'echo 1',
      },
    ],
    weighted_total: 0.5,
    hard_gate_failures: [],
    verdict: 'pass',
  };
  judged.critic_verdict = 'PASS';
  judged.decision = 'retain';
  (records[2] as Record<string, unknown>).epoch = 2;
  ledger.epochs = [{ n: 1, contract, final_outcome: 'stop', iterations: [1, 2] }];
  ledger.baseline_provenance = { coverage: 'measured' };
  ledger.pending_brief = { brief_id: 'b1' };
  ledger.resumed = 0;
  ledger.stall_threshold = 3;
  return ledger;
}

/** Every [holder, key] of a value, so one can be changed in place. */
function places(value: unknown, out: [Record<string, unknown> | unknown[], string | number][] = []) {
  if (Array.isArray(value)) value.forEach((item, i) => (out.push([value, i]), places(item, out)));
  else if (value !== null && typeof value === 'object')
    for (const key of Object.keys(value)) {
      out.push([value as Record<string, unknown>, key]);
      places((value as Record<string, unknown>)[key], out);
    }
  return out;
}

const replacement = fc.constantFrom<unknown>(
  undefined,
  null,
  0,
  -1,
  1,
  2,
  1.5,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  'x',
  'continue',
  'pass',
  'measured',
  'PASS',
  'ESCALATE',
  'retain',
  'higher-is-better',
  true,
  [],
  ['a'],
  [1],
  {},
  { coverage: 1 },
  { coverage: 'x' },
);

function verdicts(ledger: unknown, proven: boolean): [string | null, string | null] {
  clearPlainPieces();
  const compiled = ledgerShapeProblem(ledger, 's1', proven);
  usePlainPieces('shape-compiled');
  const interpreted = ledgerShapeProblem(ledger, 's1', proven);
  clearPlainPieces();
  return [compiled, interpreted];
}

describe('store: the ledger shape table, compiled', () => {
  afterEach(() => clearPlainPieces());

  it('compiles here (so the commands take it)', () => {
    const passes = compileSpec({
      kind: OBJECT,
      expected: 'an object',
      nullable: false,
      keys: ['a'],
      fields: [{ kind: STRING, expected: 'a string', nullable: false }],
      required: [true],
    });
    assert.ok(passes);
    assert.equal(passes({ a: 'x' }), true);
    assert.equal(passes({ a: 1 }), false);
    assert.equal(passes({}), false);
  });

  it('a rich ledger passes both ways', () => {
    assert.deepEqual(verdicts(richLedger(), false), [null, null]);
  });

  it('property: with any one value changed (or removed), the compiled form and the interpreter agree word for word', () => {
    const count = places(richLedger()).length;
    fc.assert(
      fc.property(fc.nat(count - 1), replacement, fc.boolean(), (at, value, proven) => {
        const ledger = richLedger();
        const [holder, key] = places(ledger)[at] as [Record<string, unknown>, string];
        if (value === undefined && !Array.isArray(holder)) delete holder[key];
        else holder[key] = value;
        const [compiled, interpreted] = verdicts(ledger, proven);
        assert.equal(compiled, interpreted, `${String(key)} := ${JSON.stringify(value)}`);
      }),
      { numRuns: 1500 },
    );
  });

  it('refuses what is not a ledger object, and a record numbered out of order, both ways', () => {
    for (const value of [null, [], 'x', 1]) {
      const [compiled, interpreted] = verdicts(value, false);
      assert.equal(compiled, interpreted);
      assert.notEqual(compiled, null);
    }
    const ledger = richLedger() as { iterations: { n: number }[] };
    (ledger.iterations[2] as { n: number }).n = 7;
    const [compiled, interpreted] = verdicts(ledger, false);
    assert.match(compiled ?? '', /records are numbered/);
    assert.equal(compiled, interpreted);
    assert.deepEqual(verdicts(ledger, true), [null, null]); // proven records are not re-checked
  });
});
