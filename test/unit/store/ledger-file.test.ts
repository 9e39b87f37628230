import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  SCHEMA_VERSION,
  keepCorruptCopy,
  readLedgerFile,
  saveLedgerFile,
  serializeLedger,
} from '../../../src/store/ledger-file';
import { sampleLedger } from './fixtures/sample-ledger';
import { useTempDir } from './fixtures/temp-dir';

describe('store: ledger file', () => {
  const tmp = useTempDir();
  const file = () => join(tmp(), 's1.json');

  function corruptReason(content: string | Buffer): string {
    writeFileSync(file(), content);
    const read = readLedgerFile(file());
    assert.equal(read.kind, 'corrupt', JSON.stringify(read).slice(0, 200));
    return read.kind === 'corrupt' ? read.reason : '';
  }

  it('reads a missing file as absent', () => {
    assert.deepEqual(readLedgerFile(file()), { kind: 'absent' });
  });

  it('round-trips a ledger: schema_version added, top-level keys sorted, indent 2, trailing newline', () => {
    const ledger = sampleLedger();
    saveLedgerFile(file(), ledger);
    const text = readFileSync(file(), 'utf8');
    assert.ok(text.endsWith('}\n'));
    assert.ok(text.startsWith('{\n  "completed_actions": []'));
    const keys = Object.keys(JSON.parse(text));
    assert.deepEqual(keys, [...keys].sort());
    assert.ok(keys.includes('schema_version'));
    const read = readLedgerFile(file());
    assert.equal(read.kind, 'ok');
    if (read.kind !== 'ok') return;
    assert.equal(read.format, 'loop-ledger');
    assert.equal(read.text, text);
    assert.deepEqual(read.ledger, { ...ledger, schema_version: SCHEMA_VERSION });
    assert.equal(serializeLedger(read.ledger), text, 'stable: a re-save writes the same bytes');
  });

  it('keeps the order of nested keys as read', () => {
    const ledger = sampleLedger();
    (ledger.contract as unknown as Record<string, unknown>) = { purpose: 'p', owner: 'o' };
    const text = serializeLedger(ledger);
    assert.ok(text.indexOf('"purpose"') < text.indexOf('"owner"'));
  });

  it('reads a ledger without schema_version as the original format', () => {
    const { schema_version: _, ...original } = { ...sampleLedger(), schema_version: 0 };
    writeFileSync(file(), `${JSON.stringify(original, null, 2)}\n`);
    const read = readLedgerFile(file());
    assert.equal(read.kind, 'ok');
    assert.equal(read.kind === 'ok' && read.format, 'original');
    assert.equal(read.kind === 'ok' && read.ledger.session, 's1');
  });

  it('text without U+FFFD came from valid UTF-8 (the reader checks the bytes only when one appears)', () => {
    // Random bytes, biased to the lead and continuation bytes where encodings go wrong.
    const byte = fc.oneof(fc.integer({ min: 0, max: 0xff }), fc.integer({ min: 0x80, max: 0xf7 }));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), fc.array(byte, { maxLength: 24 }), (a, b) => {
        const bytes = Buffer.concat([Buffer.from(a), Buffer.from(b)]);
        if (!isUtf8(bytes)) assert.ok(bytes.toString('utf8').includes('\uFFFD'));
      }),
      { numRuns: 5000 },
    );
    // Surrogates, overlong forms and code points past U+10FFFF, each alone in a ledger's string.
    for (const bad of [
      [0xed, 0xa0, 0x80],
      [0xc0, 0xaf],
      [0xe0, 0x80, 0xaf],
      [0xf4, 0x90, 0x80, 0x80],
      [0x80],
    ]) {
      const bytes = Buffer.concat([Buffer.from('{"session": "'), Buffer.from(bad), Buffer.from('"}')]);
      assert.match(corruptReason(bytes), /not valid UTF-8/);
    }
    // A real U+FFFD in the text is data, not a decoding error.
    const ledger = sampleLedger('s1', 1);
    (ledger.iterations[0] as { note: string | null }).note = 'replacement \uFFFD char';
    writeFileSync(file(), serializeLedger(ledger));
    const read = readLedgerFile(file());
    assert.equal(read.kind === 'ok' && read.ledger.iterations[0]?.note, 'replacement \uFFFD char');
  });

  it('refuses a newer schema as too new, before checking anything else', () => {
    writeFileSync(file(), JSON.stringify({ schema_version: SCHEMA_VERSION + 1, layout: 'different' }));
    assert.deepEqual(readLedgerFile(file()), { kind: 'too-new', version: SCHEMA_VERSION + 1 });
  });

  it('reports each kind of corruption with a reason', () => {
    assert.match(corruptReason(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])), /not valid UTF-8/);
    assert.match(corruptReason('{"session": "s1",'), /not valid JSON/);
    assert.match(corruptReason(''), /not valid JSON/);
    assert.match(corruptReason('[1, 2]'), /a list, not a ledger object/);
    assert.match(corruptReason('null'), /null, not a ledger object/);
    assert.match(corruptReason('"text"'), /a string, not a ledger object/);
    assert.match(
      corruptReason('{"session": "s1", "status": "open"}'),
      /is invalid at contract: missing \(expected an object\)/,
    );
    const contract = '{"iteration_limit": 3}';
    assert.match(
      corruptReason(`{"session": "s1", "contract": ${contract}, "status": "open", "iterations": {}}`),
      /at iterations: expected a list, found an object/,
    );
    assert.match(
      corruptReason(`{"session": 1, "contract": ${contract}, "status": "open", "iterations": []}`),
      /at session: expected a string, found 1/,
    );
    assert.match(
      corruptReason('{"schema_version": "1", "session": "s1"}'),
      /schema_version as a string, not a positive integer/,
    );
  });

  it('reports a folder where the file should be as unreadable', () => {
    mkdirSync(file());
    const read = readLedgerFile(file());
    assert.equal(read.kind, 'corrupt');
    assert.match(read.kind === 'corrupt' ? read.reason : '', /is a folder, not a regular file/);
  });

  it('keeps a corrupt copy under a timestamped name, never overwriting an earlier one', () => {
    writeFileSync(file(), '{broken');
    const now = new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 678));
    const first = keepCorruptCopy(file(), now);
    assert.equal(first, `${file()}.corrupt-20250102T030405Z`);
    assert.equal(readFileSync(first, 'utf8'), '{broken');
    const second = keepCorruptCopy(file(), now);
    assert.equal(second, `${file()}.corrupt-20250102T030405Z-2`);
    assert.equal(readdirSync(tmp()).length, 3);
  });

  // Speed is measured by bench/run.mjs (ratios, same run); a test asserts no wall-clock time.
  it('reads, serializes and writes a 10,000-iteration ledger, proving its records reusable', function () {
    this.timeout(30_000);
    const text = serializeLedger(sampleLedger('s1', 10_000));
    writeFileSync(file(), text);
    const started = process.hrtime.bigint();
    const read = readLedgerFile(file());
    const afterRead = process.hrtime.bigint();
    assert.equal(read.kind, 'ok');
    if (read.kind !== 'ok') return;
    const out = serializeLedger(read.ledger);
    const afterSerialize = process.hrtime.bigint();
    saveLedgerFile(file(), read.ledger, {
      text: read.text,
      iterations: read.ledger.iterations,
      records: read.records,
    });
    const done = process.hrtime.bigint();
    assert.equal(out, text);
    assert.notEqual(read.records, null, "the writer's own layout is proved reusable");
    assert.equal(readFileSync(file(), 'utf8'), text);
    const ms = (a: bigint, b: bigint) => Number(b - a) / 1e6;
    if (process.env.STORE_TIMINGS) {
      console.log(
        `      ${(text.length / 1e6).toFixed(1)} MB: read ${ms(started, afterRead).toFixed(1)} ms, ` +
          `serialize ${ms(afterRead, afterSerialize).toFixed(1)} ms, write ${ms(afterSerialize, done).toFixed(1)} ms`,
      );
    }
  });
});
