// summarizeRecords folds a whole ledger's records at once (a first touch reads every record
// through it) and looks each epoch up once per run of records; addRecord folds one record at a
// time (an append). Both must give the same summary, whatever the epochs, spend and judgements.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { addRecord, emptySummary, summarizeRecords } from '../../../src/engine/records-summary';
import type { IterationRecord } from '../../../src/engine/types';
import { sampleRecord } from '../store/fixtures/sample-ledger';

const recordArb = fc.record({
  epoch: fc.oneof(fc.constantFrom(1, 2, 3), fc.constant(undefined)),
  cost: fc.oneof(fc.constant(undefined), fc.constant(null), fc.double({ min: 0, max: 5, noNaN: true })),
  tokens: fc.oneof(fc.constant(undefined), fc.nat(1000), fc.constant(-1)),
  measured: fc.oneof(fc.constant(null), fc.constant({}), fc.constant({ coverage: 70 })),
  judged: fc.boolean(),
  stall: fc.oneof(fc.constant(null), fc.constant(undefined), fc.constant('repeated-actions')),
  error: fc.oneof(fc.constant(null), fc.constant('E1')),
});

describe('engine: the records summary', () => {
  it('property: summarizeRecords equals folding addRecord one record at a time', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { maxLength: 30 }), (specs) => {
        const records = specs.map((s, i) => {
          const r: Record<string, unknown> = { ...sampleRecord(i + 1) };
          if (s.epoch === undefined) delete r.epoch;
          else r.epoch = s.epoch;
          if (s.cost !== undefined) r.cost_usd = s.cost;
          if (s.tokens !== undefined) r.tokens_in = s.tokens;
          r.measurements = s.measured;
          r.decision = s.judged ? 'retain' : null;
          if (s.stall === undefined) delete r.stall;
          else r.stall = s.stall;
          r.error_signature = s.error;
          return r as unknown as IterationRecord;
        });
        const folded = emptySummary();
        for (const record of records) addRecord(folded, record);
        assert.deepEqual(summarizeRecords(records), folded);
      }),
      { numRuns: 500 },
    );
  });
});
