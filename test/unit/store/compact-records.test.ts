// The records of another writer's ledger, copied from its bytes one per line: each line must
// parse to exactly the record JSON.parse read from the file, whatever the file's formatting,
// escapes or nesting; anything the copy does not recognise is null (the caller serialises).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compactRecordInto, compactRecords, iterationsOpen } from '../../../src/store/compact-records';
import { keysPass } from '../../../src/store/json-keys';
import { parseLedgerText, readLedgerFile, serializeLedger } from '../../../src/store/ledger-file';
import { RECORD_SEPARATOR } from '../../../src/store/ledger-layout';
import { readSealedLedger } from '../../../src/store/ledger-sealed';
import { DIGEST_MIN_BYTES } from '../../../src/store/records-digest';
import { summarizeRecords } from '../../../src/engine/records-summary';
import { runCli, tempRoot } from '../helpers/cli';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sampleLedger } from './fixtures/sample-ledger';
import { pythonDumps as dumps } from '../helpers/python-json';

/** The original engine's layout, keys written raw (so a key may hold UTF-8 bytes, as a hand edit's may). */
const pythonDumps = (value: unknown): string => dumps(value, { rawKeys: true });

/** The lines compactRecords wrote, each parsed. */
function lines(bytes: Buffer): unknown[] {
  return bytes
    .toString('utf8')
    .split(RECORD_SEPARATOR)
    .map((line) => {
      assert.ok(!line.includes('\n'), 'one record per line');
      return JSON.parse(line) as unknown;
    });
}

const json = fc.jsonValue({ maxDepth: 3 });
// Strings that look like the structure: quotes, backslashes, brackets, colons, blanks, the key.
const tricky = fc.constantFrom(
  '"',
  '\\',
  '\\"',
  '": ',
  '{',
  '}',
  '[',
  ']',
  ',',
  ' ',
  'iterations',
  '"iterations": [',
  '\u00e9\u2028\ud83d\ude00',
  '\t',
  '\n',
);
const text = fc.array(fc.oneof(fc.string(), tricky), { maxLength: 4 }).map((parts) => parts.join(''));
const record = fc.dictionary(fc.oneof(text, fc.string()), fc.oneof(json, text), { maxKeys: 6 });
const ledgerOf = (records: Record<string, unknown>[], extra: Record<string, unknown>) => ({
  ...extra,
  session: 's',
  iterations: records,
});
const formats: ((value: unknown) => string)[] = [
  (value) => `${pythonDumps(value)}\n`,
  (value) => JSON.stringify(value, null, 2),
  (value) => JSON.stringify(value),
  (value) => JSON.stringify(value, null, '\t').replace(/\n/g, '\r\n'),
];
/** A whole ledger's bytes in one of the formats, with its records and other top-level keys. */
const ledgerFile = fc
  .tuple(
    fc.array(record, { minLength: 1, maxLength: 6 }),
    fc.dictionary(fc.oneof(text, fc.string()), fc.oneof(json, text), { maxKeys: 4 }),
    fc.constantFrom(...formats.keys()),
  )
  .map(([records, extra, format]) => {
    delete extra.iterations;
    const write = formats[format] as (value: unknown) => string;
    return { records, format, file: Buffer.from(write(ledgerOf(records, extra)), 'utf8') };
  });

/**
 * `bytes` written by the WebAssembly pass (json-keys.wat's `compact`) without its blanks, or
 * null when it refused them. The piece sits between bytes it must neither read nor overwrite.
 */
function wasmCompact(bytes: Buffer): Buffer | null {
  const pass = keysPass();
  assert.ok(pass !== null, 'WebAssembly runs here');
  const fence = 16;
  const room = pass.room(fence + bytes.length + fence + bytes.length + 16 + fence);
  room.fill(0x7b, 0, room.length); // `{` everywhere: read by mistake, it would change the answer
  bytes.copy(room, fence);
  const out = fence + bytes.length + fence;
  const end = pass.compactAt(fence, bytes.length, out, out + bytes.length + 16, 0);
  const after = pass.room(0);
  assert.ok(
    after.subarray(0, fence).every((b) => b === 0x7b),
    'nothing written before the piece',
  );
  assert.ok(after.subarray(fence, fence + bytes.length).equals(bytes), 'the piece left as it was');
  if (end < 0) return null;
  assert.ok(end <= out + bytes.length);
  assert.ok(
    after.subarray(out + bytes.length + 16, out + bytes.length + 16 + fence).every((b) => b === 0x7b),
  );
  return Buffer.from(after.subarray(out, end));
}

/**
 * A whole file's records laid out by the WebAssembly pass as the record-by-record reader has it
 * do (ledger-sliced.ts): the header up to the list's `[` scanned, then the rest compacted in
 * records mode. What it wrote, where each record ended in that, and where it stopped.
 */
function wasmRecords(file: Buffer): { laidOut: Buffer; ends: number[]; stop: number } | null {
  const pass = keysPass();
  assert.ok(pass !== null);
  const open = iterationsOpen(file);
  assert.ok(open >= 0);
  const piece = file.length - open - 1;
  const out = Math.ceil((file.length + 16) / 4) * 4;
  const limit = out + RECORD_SEPARATOR.length * piece + 16;
  const table = Math.ceil(limit / 4) * 4;
  file.copy(pass.room(table + 12 + 2 * piece), 0);
  if (!pass.scanAt(0, open + 1)) return null; // an escaped key in the header: not proved
  pass.records();
  const end = pass.compactAt(open + 1, piece, out, limit, table);
  if (end < 0) return null;
  const ends = Array.from({ length: pass.ended(table, 0) }, (_, k) => pass.ended(table, 2 + k) - out);
  return { laidOut: Buffer.from(pass.room(0).subarray(out, end)), ends, stop: pass.ended(table, 1) };
}

describe('store: the WebAssembly compact copy of one record', () => {
  it('property: laying out a whole list, it writes what compactRecords writes, and where each record ends', () => {
    fc.assert(
      fc.property(ledgerFile, ({ records, file }) => {
        const got = wasmRecords(file);
        const expected = compactRecords(file, records.length) as Buffer;
        if (file.some((b) => b >= 0x80) || got === null) {
          // Refused: a byte of 0x80 or more, or a key not proved unique (an escaped one).
          assert.ok(file.some((b) => b >= 0x80) || file.includes('\\'), file.toString('latin1'));
          return;
        }
        assert.ok(got.laidOut.equals(expected), file.toString('latin1'));
        const lines = expected.toString('latin1').split(RECORD_SEPARATOR);
        let at = 0;
        assert.deepEqual(
          got.ends,
          lines.map((line) => (at += line.length + (at === 0 ? 0 : RECORD_SEPARATOR.length))),
        );
        // It stopped at the list's `]`, before it (the header goes on from there).
        assert.equal(file[got.stop], 0x5d);
        assert.deepEqual(
          JSON.parse(
            `${file.toString('utf8', 0, iterationsOpen(file) + 1)}${file.toString('utf8', got.stop)}`,
          ).iterations,
          [],
        );
      }),
      { numRuns: 300 },
    );
  });

  it('property: writes byte for byte what compactRecordInto writes, in any formatting; refuses non-ASCII', () => {
    fc.assert(
      fc.property(record, fc.constantFrom(...formats.keys()), (value, format) => {
        const bytes = Buffer.from((formats[format] as (v: unknown) => string)(value).trim(), 'utf8');
        const got = wasmCompact(bytes);
        if (bytes.some((b) => b >= 0x80)) {
          assert.equal(got, null, 'a byte of 0x80 or more is refused');
          return;
        }
        const expected = Buffer.alloc(bytes.length);
        const end = compactRecordInto(bytes, 0, bytes.length, expected, 0);
        // A repeated key is not proved (JSON.stringify never writes one: only escaped keys are).
        if (got === null) assert.ok(bytes.includes('\\'), bytes.toString('latin1'));
        else assert.ok(got.equals(expected.subarray(0, end)), bytes.toString('latin1'));
      }),
      { numRuns: 600 },
    );
  });

  it('refuses a dropped blank that would join two words (then the compact text is other JSON)', () => {
    // Each of these is refused by JSON.parse, and the same text without its blanks is not.
    const refused = [
      '{"a":[1 2]}',
      '{"a":1 .5}',
      '{"a":- 1}',
      '{"a":tr ue}',
      '{"a":1\n2}',
      '{"a":[1,\t2 3]}',
    ];
    for (const text of refused) {
      assert.throws(() => JSON.parse(text));
      assert.doesNotThrow(() => JSON.parse(text.replace(/\s/g, '')));
      assert.equal(wasmCompact(Buffer.from(text)), null, text);
    }
    const kept = [
      ['{"a": [1, 2]}', '{"a":[1,2]}'],
      ['{"a" : "1 2" , "b" :true}', '{"a":"1 2","b":true}'],
      ['{ "a":1 }', '{"a":1}'],
      ['{"a":[ -1 ,0.5e3 , null ]}', '{"a":[-1,0.5e3,null]}'],
    ];
    for (const [text, compact] of kept) {
      assert.equal(wasmCompact(Buffer.from(text as string))?.toString('latin1'), compact, text);
    }
  });
});

describe('store: compactRecords', () => {
  it('each line is exactly one record as parsed, in any formatting', () => {
    fc.assert(
      fc.property(ledgerFile, ({ file }) => {
        const parsed = JSON.parse(file.toString('utf8')) as { iterations: unknown[] };
        const copied = compactRecords(file, parsed.iterations.length);
        assert.ok(copied !== null);
        assert.deepEqual(lines(copied), parsed.iterations);
      }),
      { numRuns: 400 },
    );
  });

  it('writes what JSON.stringify writes when the file wrote characters as JSON.stringify does', () => {
    const ledger = sampleLedger('s', 50);
    const file = Buffer.from(`${JSON.stringify(ledger, null, 2)}\n`, 'utf8');
    const copied = compactRecords(file, ledger.iterations.length);
    assert.equal(
      copied?.toString('utf8'),
      ledger.iterations.map((r) => JSON.stringify(r)).join(RECORD_SEPARATOR),
    );
  });

  it('finds the top-level list, not a nested key or a string of that name', () => {
    const value = {
      a: { iterations: [{ n: 99 }] },
      b: '"iterations": [{"n": 98}]',
      iterations: [{ n: 1 }, { n: 2 }],
    };
    const copied = compactRecords(Buffer.from(pythonDumps(value)), 2);
    assert.deepEqual(lines(copied as Buffer), value.iterations);
  });

  it('is null for a count that does not match, a record that is not an object, or an escaped key', () => {
    const file = (value: unknown) => Buffer.from(pythonDumps(value));
    assert.equal(compactRecords(file({ iterations: [{ n: 1 }, { n: 2 }] }), 3), null);
    assert.equal(compactRecords(file({ iterations: [{ n: 1 }, { n: 2 }] }), 1), null);
    assert.equal(compactRecords(file({ iterations: [{ n: 1 }, 2] }), 2), null);
    assert.equal(compactRecords(file({ iterations: [] }), 0), null);
    assert.equal(compactRecords(file({ iterations: {} }), 1), null);
    assert.equal(compactRecords(Buffer.from('{"iteration\\u0073": [{"n": 1}]}'), 1), null);
    assert.equal(compactRecords(file({ other: [{ n: 1 }] }), 1), null);
  });

  // The copy is the rule at every size: records too short to seal, and records sealed.
  for (const [what, count, sealed] of [
    ['short', 40, false],
    ['long', Math.ceil((DIGEST_MIN_BYTES * 1.5) / 600), true],
  ] as const) {
    it(`a first write of the original engine’s ${what} ledger copies its records and reads back the same`, () => {
      const ledger = sampleLedger('s1', count);
      const { schema_version: _, ...plain } = ledger as typeof ledger & { schema_version?: number };
      const root = tempRoot('loop-ledger-compact-');
      const dir = join(root, '.loop', 'ledgers');
      mkdirSync(dir, { recursive: true });
      const path = join(dir, 's1.json');
      writeFileSync(path, `${pythonDumps(plain)}\n`);
      const read = readLedgerFile(path);
      assert.ok(read.kind === 'ok' && read.format === 'original' && read.bytes !== undefined);
      const next = { ...read.ledger, iterations: [...read.ledger.iterations] };
      const text = serializeLedger(next, {
        text: read.text,
        iterations: read.ledger.iterations,
        records: read.records,
        bytes: read.bytes,
      });
      // The records keep the original's escapes (`\u00fc`), one per line, and read back the same.
      assert.match(text, /\\u00fc/);
      assert.notEqual(text, serializeLedger(next));
      const again = parseLedgerText(text, 's1');
      assert.ok(again.kind === 'ok' && again.records !== null, 'one record per line');
      // The same ledger; only the seal's digest differs (it is over the bytes, which keep the escapes).
      const expected = JSON.parse(serializeLedger(next)) as Record<string, unknown>;
      const got = { ...again.ledger } as Record<string, unknown>;
      if (sealed) assert.match(String(got.records_sha256), /^[0-9a-f]{64}$/);
      else assert.equal(got.records_sha256, undefined);
      delete expected.records_sha256;
      delete got.records_sha256;
      assert.deepEqual(got, expected);
    });
  }

  it('the CLI’s first iterate on such a ledger leaves it sealed, with every record as it was', () => {
    // Long enough to seal; read record by record (ledger-sliced.ts), which copies them too.
    const ledger = sampleLedger('s1', Math.ceil((DIGEST_MIN_BYTES * 1.5) / 600));
    ledger.contract.iteration_limit = 100_000;
    const { schema_version: _, ...plain } = ledger as typeof ledger & { schema_version?: number };
    const root = tempRoot('loop-ledger-compact-cli-');
    const dir = join(root, '.loop', 'ledgers');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 's1.json');
    writeFileSync(path, `${pythonDumps(plain)}\n`);
    const r = runCli([
      'iterate',
      '--root',
      root,
      '--session',
      's1',
      '--outcome',
      'continue',
      '--action',
      'a1',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const sealed = readSealedLedger(path, 's1');
    assert.ok(sealed, 'sealed by the first write');
    const full = readLedgerFile(path);
    assert.ok(full.kind === 'ok' && full.records !== null);
    assert.deepEqual(full.ledger.iterations.slice(0, -1), ledger.iterations);
    assert.equal(full.ledger.iterations.length, ledger.iterations.length + 1);
    assert.equal(JSON.stringify(sealed.summary), JSON.stringify(summarizeRecords(full.ledger.iterations)));
  });
});
