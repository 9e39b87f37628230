// The time stamp forms the product writes (records, locks, work-order files, run ids, kept-copy
// and recovery names), all from one place: each form's text for instants at the edges of a day,
// a leap day and a year.
import assert from 'node:assert/strict';
import { basicUtc, basicUtcMillis, isoUtc, isoUtcSeconds } from '../../../src/engine/utc-iso';

const cases: [ms: number, iso: string, seconds: string, basic: string, basicMillis: string][] = [
  [
    Date.UTC(2026, 11, 2, 7, 30, 5, 999),
    '2026-12-02T07:30:05.999Z',
    '2026-12-02T07:30:05Z',
    '20261202T073005Z',
    '20261202T073005999Z',
  ],
  [
    Date.UTC(2024, 1, 29, 23, 59, 59, 1),
    '2024-02-29T23:59:59.001Z',
    '2024-02-29T23:59:59Z',
    '20240229T235959Z',
    '20240229T235959001Z',
  ],
  [0, '1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00Z', '19700101T000000Z', '19700101T000000000Z'],
  [-1, '1969-12-31T23:59:59.999Z', '1969-12-31T23:59:59Z', '19691231T235959Z', '19691231T235959999Z'],
];

describe('engine: time stamp forms', () => {
  for (const [ms, iso, seconds, basic, basicMillis] of cases) {
    it(`${iso}: every form`, () => {
      assert.equal(isoUtc(ms), iso);
      assert.equal(isoUtcSeconds(ms), seconds);
      assert.equal(basicUtc(ms), basic);
      assert.equal(basicUtcMillis(ms), basicMillis);
    });
  }

  it('an instant no Date can hold is refused, not written', () => {
    assert.throws(() => isoUtc(Number.NaN), RangeError);
    assert.throws(() => isoUtc(8.64e15 + 1), RangeError);
  });
});
