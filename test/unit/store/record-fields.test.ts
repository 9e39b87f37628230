// The record scanner's own values (record-fields.ts), beside the overview's differential tests
// (test/unit/overview/sealed.test.ts): a number is read from its digits in place, so every spelling
// JSON allows — leading zeros of a fraction, trailing zeros, 15 and 16 digits, exponents, minus
// zero — must give exactly JSON.parse's double; measurement names that are also the names of an
// object's built-in members must be kept as JSON.parse keeps them, and a name written twice refused.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { recordFields, type RecordFields } from '../../../src/store/record-fields';

const WANTS = { repeat: false, actions: false };

function scan(text: string, names: readonly string[] = []): RecordFields | null {
  const bytes = Buffer.from(text, 'utf8');
  return recordFields(bytes, 0, bytes.length, names, WANTS);
}

/** The value the scanner reads for `spelled` (a JSON number's text) as a record's cost. */
function costOf(spelled: string): number | undefined {
  const fields = scan(`{"n":1,"outcome":"continue","cost_usd":${spelled}}`);
  assert.ok(fields, `the record with cost ${spelled} was not vouched for`);
  return fields.cost_usd;
}

describe('record scanner: numbers and measurements as JSON.parse reads them', () => {
  it('reads every spelling of a number as JSON.parse does, to the last bit', () => {
    const spellings = [
      '0',
      '-0',
      '-0.0',
      '0.1',
      '0.10',
      '0.30000000000000004',
      '62.5',
      '-62.5',
      '0.000001',
      '1.000000000000001',
      '123456789012345',
      '123456789012345.6',
      '1234567890123456',
      '9007199254740993',
      '99999999999999.99',
      '0.000000000000000000001',
      '1e5',
      '1E-7',
      '2.5e+3',
      '5e-324',
      '1.7976931348623157e308',
      '4.35',
      '0.03',
    ];
    for (const spelled of spellings)
      assert.ok(Object.is(costOf(spelled), JSON.parse(spelled)), `${spelled}: ${costOf(spelled)}`);
  });

  it('reads random decimals of up to 18 digits, the point anywhere, as JSON.parse does', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.stringMatching(/^[1-9][0-9]{0,17}$/),
        fc.nat({ max: 18 }),
        (negative, digits, point) => {
          const cut = Math.min(point, digits.length - 1);
          const spelled =
            (negative ? '-' : '') + (cut === 0 ? digits : `${digits.slice(0, cut)}.${digits.slice(cut)}`);
          return Object.is(costOf(spelled), JSON.parse(spelled));
        },
      ),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const spelled = JSON.stringify(value);
        return Object.is(costOf(spelled), JSON.parse(spelled));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what JSON.parse refuses in a number', () => {
    for (const spelled of ['01', '1.', '.5', '-', '1e', '+1', '0x10', '1.e3'])
      assert.equal(scan(`{"n":1,"outcome":"continue","cost_usd":${spelled}}`), null, spelled);
  });

  it("keeps measurements named like an object's own members, and refuses a name written twice", () => {
    const names = ['coverage', 'toString', '__proto__', 'constructor'];
    const record = '{"n":1,"outcome":"continue","measurements":{"__proto__":3,"coverage":62.5,"x":1}}';
    const fields = scan(record, names);
    assert.ok(fields?.measurements);
    const parsed = JSON.parse(record) as { measurements: Record<string, number> };
    for (const name of names) {
      const own = Object.hasOwn(parsed.measurements, name);
      assert.equal(Object.hasOwn(fields.measurements, name), own, name);
      if (own) assert.equal(fields.measurements[name], parsed.measurements[name], name);
    }
    // Without a name that needs it, the object is a plain one: a missing member reads as no number.
    const plain = scan('{"n":1,"outcome":"continue","measurements":{"coverage":1}}', [
      'coverage',
      'toString',
    ]);
    assert.equal(typeof plain?.measurements?.toString, 'function');
    assert.equal(Object.hasOwn(plain!.measurements!, 'toString'), false);
    for (const twice of [
      '{"coverage":1,"coverage":2}',
      '{"coverage":null,"coverage":2}',
      '{"coverage":"a","x":0,"coverage":"b"}',
    ])
      assert.equal(scan(`{"n":1,"outcome":"continue","measurements":${twice}}`, ['coverage']), null, twice);
    // The same names again in the next record are no repeat.
    assert.ok(scan('{"n":2,"outcome":"continue","measurements":{"coverage":1}}', ['coverage']));
  });
});
