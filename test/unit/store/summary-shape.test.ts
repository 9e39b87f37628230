// The stored summary's shape check (src/store/summary-shape.ts): exactly what the engine's fold
// writes passes, as the same object; anything else sends the read to the full path.
import assert from 'node:assert/strict';
import { summarizeRecords } from '../../../src/engine/records-summary';
import type { IterationRecord } from '../../../src/engine/types';
import { summaryFromJson } from '../../../src/store/summary-shape';
import { sampleRecord } from './fixtures/sample-ledger';

function stored(): Record<string, unknown> {
  const records: IterationRecord[] = [1, 2, 3].map((n) => ({
    ...sampleRecord(n),
    error_signature: n === 2 ? 'e' : null,
    stall: n === 3 ? 'circular-state' : null,
    decision: n === 1 ? 'retain' : null,
  }));
  return JSON.parse(JSON.stringify(summarizeRecords(records))) as Record<string, unknown>;
}

describe('store: the stored records summary', () => {
  it('passes what the fold writes, as the same object', () => {
    const value = stored();
    assert.equal(summaryFromJson(value), value);
  });

  it('refuses anything else', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- edits reach into the parsed JSON
    const variants: [string, (s: Record<string, any>) => void][] = [
      ['a count that is not a whole number', (s) => (s.count = 1.5)],
      ['a missing key', (s) => delete s.stalls],
      ['an extra key', (s) => (s.extra = 1)],
      [
        'keys in another order',
        (s) => {
          const { count, ...rest } = s;
          for (const key of Object.keys(s)) delete s[key];
          Object.assign(s, rest, { count });
        },
      ],
      ['an error signature that is not text', (s) => s.epochs['1'].errors.push(7)],
      ['states as a map', (s) => (s.epochs['1'].states = { a: 1 })],
      ['an epoch without its records count', (s) => delete s.epochs['1'].records],
      ['a verdict outside pass/fail', (s) => (s.judged.verdict = 'maybe')],
      ['a last outcome outside the six', (s) => (s.last.outcome = 'done')],
      ['a measurement that is not a number', (s) => (s.measurements = { coverage: 'high' })],
      ['a stall that is not text', (s) => (s.stalls = [1])],
      ['a list for the epochs', (s) => (s.epochs = [])],
    ];
    for (const [what, edit] of variants) {
      const value = stored();
      edit(value);
      assert.equal(summaryFromJson(value), null, what);
    }
  });
});
