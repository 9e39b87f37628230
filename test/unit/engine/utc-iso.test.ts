// isoUtc replaces Date.prototype.toISOString on the CLI's hot path; it must give the same text
// for every instant a Date can hold.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isoUtc } from '../../../src/engine/utc-iso';

const MAX_DATE_MS = 8.64e15;

describe('engine: isoUtc', () => {
  it('gives toISOString at the edges of days, months, leap years and centuries', () => {
    const edges = [
      '1970-01-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '2000-02-29T12:00:00.000Z',
      '1900-02-28T23:59:59.999Z',
      '1900-03-01T00:00:00.000Z',
      '2024-02-29T23:59:59.999Z',
      '2026-12-31T23:59:59.999Z',
      '0000-01-01T00:00:00.000Z',
      '0000-02-29T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ];
    for (const text of edges) assert.equal(isoUtc(Date.parse(text)), text);
  });

  it('gives toISOString for any instant a Date can hold (years past 9999 and before 0 too)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_DATE_MS, max: MAX_DATE_MS }), (ms) => {
        assert.equal(isoUtc(ms), new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (ms) => {
        assert.equal(isoUtc(ms), new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it('refuses what toISOString refuses', () => {
    assert.throws(() => isoUtc(Number.NaN), RangeError);
    assert.throws(() => isoUtc(MAX_DATE_MS + 1), RangeError);
  });
});
