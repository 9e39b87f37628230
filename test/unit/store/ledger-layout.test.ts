import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { IterationRecord, Ledger } from '../../../src/engine/types';
import { parseLedgerText, serializeLedger } from '../../../src/store/ledger-file';
import type { PreviousText } from '../../../src/store/ledger-layout';
import { sampleRecord } from './fixtures/sample-ledger';

/** A record as the engine builds it (sorted keys), with the note a case needs. */
function record(n: number, note: string | null = null): IterationRecord {
  return { ...sampleRecord(n), note };
}

function ledger(iterations: IterationRecord[]): Ledger {
  return {
    session: 's',
    contract: { purpose: 'p', iteration_limit: 10, quality_rubric: [] } as unknown as Ledger['contract'],
    status: 'open',
    final_outcome: null,
    iterations,
    completed_actions: iterations.flatMap((r) => r.actions),
    resumed: 0,
  };
}

function reread(text: string): Ledger {
  const read = parseLedgerText(text);
  assert.equal(read.kind, 'ok');
  return (read as { ledger: Ledger }).ledger;
}

/** What the store hands the writer after reading `text`: the records and where their text is. */
function previousOf(text: string): PreviousText {
  const read = parseLedgerText(text);
  assert.equal(read.kind, 'ok', JSON.stringify(read));
  if (read.kind !== 'ok') throw new Error('unreachable');
  return { text, iterations: read.ledger.iterations, records: read.records };
}

describe('store: ledger layout', () => {
  it('sorted top-level keys, one record per line, parses back to the same data', () => {
    const l = ledger([record(1), record(2)]);
    const text = serializeLedger(l);
    assert.deepEqual(reread(text), { ...l, schema_version: 1 });
    const lines = text.split('\n');
    assert.equal(lines.filter((line) => line.startsWith('    {"actions"')).length, 2);
    const keys = lines
      .filter((line) => /^ {2}"/.test(line))
      .map((line) => JSON.parse(line.split(':')[0] as string));
    assert.deepEqual(keys, [...keys].sort());
    assert.ok(text.endsWith('}\n'));
    assert.match(serializeLedger(ledger([])), /"iterations": \[\],?\n/);
  });

  it('an append reuses the text of the records already on disk, and equals a full rewrite', () => {
    const first = serializeLedger(ledger([record(1), record(2, 'keep my "\\n  ]" text')]));
    const onDisk = previousOf(first);
    // The copy is byte-identical to what a full serialisation gives, so compare the two outputs.
    const appended = ledger([...onDisk.iterations, record(3)]);
    const spliced = serializeLedger(appended, onDisk);
    assert.equal(spliced, serializeLedger(appended));
    // Spacing that still parses to the same records shows the old text was copied, not rebuilt.
    const tampered = previousOf(first.replace('"n":1,', '"n": 1,'));
    const fromTampered = serializeLedger(ledger([...tampered.iterations, record(3)]), tampered);
    assert.ok(fromTampered.includes('"n": 1,'), 'the on-disk text of old records is what gets written');
  });

  it('falls back to a full rewrite when the previous text is another layout or other records', () => {
    const l = ledger([record(1), record(2)]);
    const indented = previousOf(JSON.stringify(l, null, 2));
    const next = ledger([...indented.iterations, record(3)]);
    assert.equal(serializeLedger(next, indented), serializeLedger(next));
    const onDisk = previousOf(serializeLedger(l));
    const other = ledger([onDisk.iterations[0] as IterationRecord, record(2, 'edited'), record(3)]);
    assert.equal(serializeLedger(other, onDisk), serializeLedger(other));
  });

  it('property: any notes, appended one at a time with reuse, give the same file as one full write', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.string({ unit: 'binary' })), { maxLength: 12 }), (notes) => {
        let text = serializeLedger(ledger([]));
        for (let i = 0; i < notes.length; i++) {
          const onDisk = previousOf(text);
          text = serializeLedger(ledger([...onDisk.iterations, record(i + 1, notes[i] ?? null)]), onDisk);
        }
        const all = notes.map((note, i) => record(i + 1, note ?? null));
        assert.equal(text, serializeLedger(ledger(all)));
      }),
    );
  });
});
