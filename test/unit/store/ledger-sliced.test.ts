// The record-by-record read of another writer's long ledger (src/store/ledger-sliced.ts): it must
// never let through a file the full read refuses, and whatever it lets through it must read as
// the full read does (the same header, the same summary of the records, and for an append the
// same bytes written). Anything it cannot prove sends the reader to the full read (null).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { clearPlainPieces, usePlainPieces } from '../../../src/engine/plain-pieces';
import { summarizeRecords } from '../../../src/engine/records-summary';
import type { IterationRecord, Ledger } from '../../../src/engine/types';
import { decodeLedgerBytes, readLedgerFile, saveLedgerFile } from '../../../src/store/ledger-file';
import { appendSealed, readLedgerPreferSealed, readSealedLedger } from '../../../src/store/ledger-sealed';
import {
  SLICED_CHUNK_BYTES,
  slicedEarly,
  slicedFromBytes,
  type SlicedLedger,
} from '../../../src/store/ledger-sliced';
import { ledgerBytesSteps } from '../../../src/store/read-steps';
import { runReadSync } from '../../../src/store/read-sync';
import { KEYS_PROOF_FROM_BYTES } from '../../../src/store/json-scan';
import { DIGEST_MIN_BYTES } from '../../../src/store/records-digest';
import { originalText, sampleLedger, sampleRecord } from './fixtures/sample-ledger';

/** Records enough for the file to pass DIGEST_MIN_BYTES in the original layout (~900 bytes each). */
const LONG = Math.ceil(DIGEST_MIN_BYTES / 600);
/** Files this long are read in steps (ledger-sliced.ts), shorter ones whole. */
const STEPS_BYTES = 2 * 1024 * 1024;

/** An original-engine ledger (no schema_version) with judged, measured, stalled, signed records in two epochs. */
function variedLedger(count = LONG): Ledger {
  const ledger = sampleLedger('s1', count);
  ledger.completed_actions = ledger.iterations.map((record) => (record.actions as string[])[0] as string);
  ledger.iterations = ledger.iterations.map((record, i): IterationRecord => {
    const n = i + 1;
    return {
      ...record,
      epoch: n > count - 5 ? 2 : 1,
      error_signature: n % 7 === 0 ? `sig-${n % 3}` : null,
      measurements: n % 4 === 0 ? { coverage: n % 100 } : null,
      critic_verdict: n === count - 20 ? 'PASS' : null,
      evaluation:
        n % 50 === 0
          ? {
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
            }
          : null,
      stall: n % 101 === 0 ? 'circular-state' : null,
      ...(n % 9 === 0 && { cost_usd: 0.25, tokens_in: 100, tokens_out: 7 }),
    };
  });
  ledger.epoch = 2;
  return ledger;
}

/** The file for `status`'s read in steps (one per run: the tests below write it again and again). */
const stepsDir = mkdtempSync(join(tmpdir(), 'loop-ledger-sliced-steps-'));
after(() => rmSync(stepsDir, { recursive: true, force: true }));

/**
 * `status`'s read of `bytes` as a file (`iterate`'s with `keep`), in steps of `chunk` bytes: the
 * record-by-record answer (null when not proved), or 'whole' when the file was read whole (not
 * another writer's layout).
 */
function slicedInSteps(bytes: Buffer, chunk: number, keep = false): SlicedLedger | null | 'whole' {
  const path = join(stepsDir, 's1.json');
  writeFileSync(path, bytes);
  const got = runReadSync(ledgerBytesSteps(path, slicedEarly('s1', chunk, 0, keep)));
  return 'early' in got ? got.early : 'whole';
}

/** Steps of the default size, and small odd steps (a record often straddles two). */
const STEPS = [SLICED_CHUNK_BYTES, 64 * 1024 + 7];

/**
 * Sliced says null, or answers exactly as the full read of the same bytes; read as `status`
 * reads a file, in steps, it says the same as from the whole bytes.
 */
function agreesWithFull(bytes: Buffer, keep: boolean): 'sliced' | 'full' {
  const sliced = slicedFromBytes(bytes, 's1', keep);
  const full = decodeLedgerBytes(bytes, '/x/s1.json');
  for (const chunk of STEPS) {
    const stepped = slicedInSteps(bytes, chunk, keep);
    // Read whole (records beginning past the first step, or not another writer's layout), the
    // whole bytes are read as slicedFromBytes reads them; with `keep`, the records laid out
    // step by step are byte for byte those laid out from the whole bytes.
    if (stepped !== 'whole') assert.deepEqual(stepped, sliced, `read in steps of ${chunk}`);
  }
  if (sliced === null) return 'full';
  assert.equal(full.kind, 'ok', full.kind === 'corrupt' ? `let through: ${full.reason}` : full.kind);
  if (full.kind !== 'ok') throw new Error('unreachable');
  const { iterations, ...header } = full.ledger;
  const { iterations: none, ...slicedHeader } = sliced.ledger;
  assert.deepEqual(none, []);
  assert.deepEqual(slicedHeader, header);
  assert.equal(JSON.stringify(sliced.summary), JSON.stringify(summarizeRecords(iterations)));
  return 'sliced';
}

describe('store: another writer’s long ledger read record by record', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'loop-ledger-sliced-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const ledger = variedLedger();
  const text = originalText(ledger);
  const bytes = Buffer.from(text, 'latin1');

  it('reads the header and the summary of every record, as the full read does', () => {
    assert.ok(bytes.length >= DIGEST_MIN_BYTES);
    assert.equal(agreesWithFull(bytes, false), 'sliced');
    assert.equal(agreesWithFull(bytes, true), 'sliced');
    // Without the WebAssembly pass (switched off, as where it cannot run) the JavaScript checks
    // read the same, and lay the records out byte for byte as the pass does.
    const withPass = slicedFromBytes(bytes, 's1', true);
    assert.ok(withPass?.records !== undefined);
    usePlainPieces('keys-wasm');
    try {
      assert.equal(agreesWithFull(bytes, true), 'sliced');
      assert.deepEqual(slicedFromBytes(bytes, 's1', true), withPass);
    } finally {
      clearPlainPieces();
    }
  });

  for (const [what, count] of [
    ['read whole', LONG],
    ['read in steps', Math.ceil(STEPS_BYTES / 600)],
  ] as const) {
    it(`an append (file ${what}) writes byte for byte what the full read's rewrite writes, sealed`, () => {
      const long = variedLedger(count);
      const original = originalText(long);
      assert.equal(agreesWithFull(Buffer.from(original, 'latin1'), true), 'sliced');
      const path = join(dir, 's1.json');
      const added = { ...sampleRecord(count + 1), epoch: 2, stall: 'repeated-error' as const };
      writeFileSync(path, original);
      const read = readLedgerFile(path);
      assert.equal(read.kind, 'ok');
      if (read.kind !== 'ok') return;
      const next = {
        ...read.ledger,
        iterations: [...read.ledger.iterations, added],
        completed_actions: ['x'],
      };
      saveLedgerFile(path, next, {
        text: read.text,
        iterations: read.ledger.iterations,
        records: read.records,
        bytes: read.bytes,
      });
      const expected = readFileSync(path, 'utf8');
      writeFileSync(path, original);
      const { sealed } = readLedgerPreferSealed(path, 's1');
      assert.ok(sealed, 'read record by record');
      appendSealed(path, sealed, { ...sealed.ledger, iterations: [added], completed_actions: ['x'] });
      assert.equal(readFileSync(path, 'utf8'), expected);
      const again = readSealedLedger(path, 's1');
      assert.ok(again, 'the rewrite is sealed: the next read goes through the seal');
      assert.equal(again.summary.count, count + 1);
    });
  }

  it('a long file whose records are too short to seal takes the full read for a rewrite', () => {
    // Read in steps through a long header: the records are copied, and come out shorter than a
    // seal needs.
    const ledger = variedLedger(20);
    ledger.completed_actions = Array.from({ length: STEPS_BYTES / 80 }, (_, i) =>
      `action-${i}`.padEnd(90, '.'),
    );
    const long = Buffer.from(originalText(ledger), 'latin1');
    assert.ok(long.length > STEPS_BYTES);
    assert.equal(agreesWithFull(long, false), 'sliced');
    assert.equal(agreesWithFull(long, true), 'full');
  });

  it('every file the full read refuses, or reads otherwise, takes the full read', () => {
    const mutations: [string, string][] = [
      ['"outcome": "continue"', '"outcome": 5'],
      ['"n": 7,', '"n": 8,'],
      [
        '{\n      "actions": [\n        "action-3"',
        '{\n      "note": "x",\n      "actions": [\n        "action-3"',
      ],
      ['"status": "open"', '"status": "open",\n  "status": "closed"'],
      ['"resumed": 0', '"resumed": 0,\n  "schema_version": 2'],
      ['"resumed": 0', '"resumed": 0,\n  "records_sha256": "00"'],
      ['"session": "s1"', '"session": "s2"'],
      ['"blocker": null,\n', '"blocker": null\n'],
      [
        '    },\n    {\n      "actions": [\n        "action-5"',
        '    }\n    {\n      "actions": [\n        "action-5"',
      ],
      [
        '    },\n    {\n      "actions": [\n        "action-5"',
        '    },\n    5,\n    {\n      "actions": [\n        "action-5"',
      ],
      ['"note": "iteration 4', '"note": "it\u00e9ration 4'],
      ['"epochs": []', '"epochs": [],\n  "iterations": []'],
      ['"evidence": null', '"evidence": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]'],
      // A blank inside a word: refused by the full read, though the record without its blanks
      // (what the WebAssembly pass parses) would read as JSON.
      ['"tokens_in": 100', '"tokens_in": 1 00'],
      ['"cost_usd": 0.25', '"cost_usd": 0\n.25'],
      ['"error_signature": null', '"error_signature": nu ll'],
    ];
    for (const [from, to] of mutations) {
      assert.ok(text.includes(from), from);
      const changed = text.replace(from, to);
      assert.equal(agreesWithFull(Buffer.from(changed, 'utf8'), true), 'full', to);
      assert.equal(agreesWithFull(Buffer.from(changed, 'utf8'), false), 'full', to);
    }
    // Cut short, or with text after its end, or a string never closed: still the full read's.
    for (const changed of [text.slice(0, -3), `${text}x`, `${text}"`, text.slice(0, text.length / 2)]) {
      assert.equal(agreesWithFull(Buffer.from(changed, 'latin1'), true), 'full');
      assert.equal(agreesWithFull(Buffer.from(changed, 'latin1'), false), 'full');
    }
  });

  it('read in steps: a record longer than a step, and a file the key proof covers', () => {
    const long = variedLedger();
    (long.iterations[40] as IterationRecord).note = 'x'.repeat(3 * SLICED_CHUNK_BYTES);
    assert.equal(agreesWithFull(Buffer.from(originalText(long), 'latin1'), false), 'sliced');
    // Over the size from which the WebAssembly proof, fed step by step, decides about keys.
    const big = originalText(variedLedger(LONG * 6));
    assert.ok(big.length >= KEYS_PROOF_FROM_BYTES);
    assert.equal(agreesWithFull(Buffer.from(big, 'latin1'), false), 'sliced');
    const last = big.lastIndexOf('"outcome": ');
    const repeated = `${big.slice(0, last)}"outcome": "stop",\n      ${big.slice(last)}`;
    assert.equal(agreesWithFull(Buffer.from(repeated, 'latin1'), false), 'full');
    // Each of these was read in steps, not whole.
    for (const text of [originalText(long), big]) {
      const stepped = slicedInSteps(Buffer.from(text, 'latin1'), 64 * 1024 + 7);
      assert.ok(stepped !== null && stepped !== 'whole');
    }
  });

  it('a change it can prove harmless is read record by record, as the full read reads it', () => {
    for (const [from, to] of [
      ['"note": "iteration 4', '"note": "iteration four'],
      ['"resumed": 0', '"resumed": 0,\n  "schema_version": 1'],
    ]) {
      assert.equal(
        agreesWithFull(Buffer.from(text.replace(from as string, to as string), 'latin1'), true),
        'sliced',
      );
    }
  });

  it('any one byte changed, added or taken away: never read otherwise than the full read reads it', () => {
    // The bytes around the records' boundaries and the header are where a wrong proof would show.
    const spots = [
      text.indexOf('"iterations": ['),
      text.indexOf('\n    },\n    {'),
      text.lastIndexOf('\n  ]'),
    ];
    const at = fc.oneof(
      fc.integer({ min: 0, max: text.length - 1 }),
      ...spots.map((spot) => fc.integer({ min: spot - 12, max: spot + 24 })),
    );
    const byte = fc.constantFrom(0x20, 0x0a, 0x2c, 0x7b, 0x7d, 0x5b, 0x5d, 0x22, 0x5c, 0x3a, 0x31, 0x61);
    fc.assert(
      fc.property(at, byte, fc.constantFrom('set', 'insert', 'delete'), (where, value, how) => {
        const copy =
          how === 'delete'
            ? Buffer.concat([bytes.subarray(0, where), bytes.subarray(where + 1)])
            : how === 'insert'
              ? Buffer.concat([bytes.subarray(0, where), Buffer.from([value]), bytes.subarray(where)])
              : Buffer.from(bytes);
        if (how === 'set') copy[where] = value;
        agreesWithFull(copy, false);
      }),
      { numRuns: 100 },
    );
  });
});
