// The time stamp forms the product writes all come from isoUtc: each equals the expression its
// caller used to build from Date.prototype.toISOString, for any instant in years 0000–9999.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { basicUtc, basicUtcMillis, isoUtcSeconds } from '../../../src/engine/utc-iso';

const instant = fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 });

describe('engine: time stamp forms', () => {
  it('isoUtcSeconds is toISOString without the milliseconds (work-order files)', () => {
    fc.assert(
      fc.property(instant, (ms) => {
        assert.equal(isoUtcSeconds(ms), new Date(ms).toISOString().replace(/\.[0-9]{3}Z$/, 'Z'));
      }),
      { numRuns: 2000 },
    );
    assert.equal(isoUtcSeconds(Date.UTC(2026, 11, 2, 7, 30, 5, 999)), '2026-12-02T07:30:05Z');
  });

  it('basicUtc is the run id stamp; basicUtcMillis the resume and recovery stamp', () => {
    fc.assert(
      fc.property(instant, (ms) => {
        const iso = new Date(ms).toISOString();
        assert.equal(basicUtc(ms), iso.replace(/[-:]/g, '').slice(0, 15) + 'Z');
        assert.equal(basicUtcMillis(ms), iso.replace(/[-:.]/g, ''));
      }),
      { numRuns: 2000 },
    );
    assert.equal(basicUtc(Date.UTC(2026, 0, 2, 3, 4, 5, 6)), '20260102T030405Z');
    assert.equal(basicUtcMillis(Date.UTC(2026, 0, 2, 3, 4, 5, 6)), '20260102T030405006Z');
  });
});
