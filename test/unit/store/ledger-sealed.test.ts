// The sealed fast path (src/store/ledger-sealed.ts): a long ledger this store wrote is read
// through its header and summary, and an append carries the old records as bytes. Every file it
// cannot prove must send the reader to the full path (null), and the full path must then give
// the right verdict; an append must write exactly the bytes the full path writes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deriveBaseline } from '../../../src/engine/baseline';
import { summarizeRecords } from '../../../src/engine/records-summary';
import type { IterationRecord, Ledger } from '../../../src/engine/types';
import {
  readLedgerFile,
  saveLedgerFile,
  serializeLedger,
  type LedgerRead,
} from '../../../src/store/ledger-file';
import { appendSealed, readSealedLedger } from '../../../src/store/ledger-sealed';
import { DIGEST_MIN_BYTES } from '../../../src/store/records-digest';
import { sampleLedger, sampleRecord } from './fixtures/sample-ledger';

/** Enough records for their bytes to pass DIGEST_MIN_BYTES (each is about 600 bytes). */
const LONG = Math.ceil(DIGEST_MIN_BYTES / 500);

let dir: string;
const file = (): string => join(dir, 's1.json');

/** A long ledger with judged, stalled, measured and signed records in two epochs. */
function variedLedger(count = LONG): Ledger {
  const ledger = sampleLedger('s1', count);
  ledger.iterations = ledger.iterations.map((record, i): IterationRecord => {
    const n = i + 1;
    return {
      ...record,
      epoch: n > count - 5 ? 2 : 1,
      error_signature: n % 7 === 0 ? `sig-${n % 3}` : null,
      measurements: n % 4 === 0 ? { coverage: n % 100 } : null,
      critic_verdict: n === count - 20 ? 'PASS' : null,
      stall: n % 101 === 0 ? 'circular-state' : null,
    };
  });
  ledger.epoch = 2;
  return ledger;
}

function write(text: string): void {
  writeFileSync(file(), text);
}

/** The records region of a file this store wrote (between the list's brackets). */
function recordLines(text: string): { head: string; lines: string[]; tail: string } {
  const open = '\n  "iterations": [\n    ';
  const start = text.indexOf(open) + open.length;
  const end = text.indexOf('\n  ]', start);
  return {
    head: text.slice(0, start),
    lines: text.slice(start, end).split(',\n    '),
    tail: text.slice(end),
  };
}

function joinLines(parts: { head: string; lines: string[]; tail: string }): string {
  return parts.head + parts.lines.join(',\n    ') + parts.tail;
}

/** The fast path says no; the full path reads `verdict`. */
function refusedFast(text: string, verdict: LedgerRead['kind'], reason?: RegExp): void {
  write(text);
  assert.equal(readSealedLedger(file(), 's1'), null, 'the sealed reader must refuse this file');
  const full = readLedgerFile(file());
  assert.equal(full.kind, verdict, full.kind === 'corrupt' ? full.reason : 'read ok');
  if (reason && full.kind === 'corrupt') assert.match(full.reason, reason);
}

describe('store: sealed ledgers (status and iterate without parsing old records)', () => {
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'loop-ledger-sealed-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const ledger = variedLedger();
  const text = serializeLedger(ledger);

  it('reads the header and the summary of every record, and nothing else', () => {
    write(text);
    const sealed = readSealedLedger(file(), 's1');
    assert.ok(sealed, 'a long ledger the store wrote is read sealed');
    assert.deepEqual(sealed.ledger.iterations, []);
    assert.equal(
      JSON.stringify(sealed.summary),
      JSON.stringify(summarizeRecords(ledger.iterations)),
      'the stored summary is the fold of every record',
    );
    const full = readLedgerFile(file());
    if (full.kind !== 'ok') throw new Error('unreadable');
    const { iterations: _records, ...header } = full.ledger;
    const { iterations: _none, ...sealedHeader } = sealed.ledger;
    assert.deepEqual(sealedHeader, header);
  });

  it('an append writes byte for byte what the full path writes', () => {
    write(text);
    const sealed = readSealedLedger(file(), 's1');
    assert.ok(sealed);
    const added = { ...sampleRecord(LONG + 1), epoch: 2, stall: 'repeated-error' as const };
    appendSealed(file(), sealed, { ...sealed.ledger, iterations: [added], completed_actions: ['x'] });
    const fast = readFileSync(file(), 'utf8');
    const expected = serializeLedger({
      ...ledger,
      iterations: [...ledger.iterations, added],
      completed_actions: ['x'],
    });
    assert.equal(fast, expected);
    // …and the next read is sealed again, with the summary folded forward.
    const again = readSealedLedger(file(), 's1');
    assert.ok(again);
    assert.equal(again.summary.count, LONG + 1);
    assert.deepEqual(again.summary.stalls.slice(-1), ['repeated-error']);
  });

  it('an append that is not one refuses before writing anything', () => {
    write(text);
    const sealed = readSealedLedger(file(), 's1');
    assert.ok(sealed);
    assert.throws(
      () => appendSealed(file(), sealed, { ...sealed.ledger, iterations: [sampleRecord(3)] }),
      /internal: a sealed append/,
    );
    assert.equal(readFileSync(file(), 'utf8'), text);
  });

  it('a summary edited under a matching digest is caught; the full path reads the true records', () => {
    const edited = text.replace(/"records_summary": \{"count":\d+/, '"records_summary": {"count":3');
    assert.notEqual(edited, text);
    refusedFast(edited, 'ok');
    const stalls = text.replace(/"stalls":\[[^\]]*\]/, '"stalls":[]');
    assert.notEqual(stalls, text);
    refusedFast(stalls, 'ok');
  });

  it('a record edited with the old digest is refused by the fast path and checked in full', () => {
    refusedFast(text.replace('"n":7,', '"n":"7",'), 'corrupt', /iterations\[6\]\.n/);
    refusedFast(text.replace('"note":"iteration 9:', '"note":"iteration nine:'), 'ok');
  });

  it('records reordered are refused by both paths', () => {
    const parts = recordLines(text);
    const [a, b] = [parts.lines[3] as string, parts.lines[4] as string];
    parts.lines[3] = b;
    parts.lines[4] = a;
    refusedFast(joinLines(parts), 'corrupt', /records are numbered/);
  });

  it('a record line split in two, or two lines joined, is refused by the fast path', () => {
    const split = recordLines(text);
    split.lines[5] = (split.lines[5] as string).replace(',"blocker"', ',\n      "blocker"');
    refusedFast(joinLines(split), 'ok');
    const joined = recordLines(text);
    joined.lines.splice(5, 2, `${joined.lines[5]},${joined.lines[6]}`);
    refusedFast(joinLines(joined), 'ok');
  });

  it('a key repeated inside the records or in the header is refused, and the full path names it', () => {
    const inRecord = text.replace('{"actions":["action-1"]', '{"note":"x","actions":["action-1"]');
    refusedFast(inRecord, 'corrupt', /"note" twice in iterations\[0\]/);
    const inHeader = text.replace(/\n}\n$/, ',\n  "status": "closed"\n}\n');
    refusedFast(inHeader, 'corrupt', /"status" twice at the top level/);
  });

  it('a truncated file, a BOM, or a reformatted header takes the full path', () => {
    refusedFast(text.slice(0, text.length - 40), 'corrupt', /not valid JSON/);
    refusedFast(text.slice(0, Math.floor(text.length / 2)), 'corrupt', /not valid JSON/);
    refusedFast(`\ufeff${text}`, 'ok');
    refusedFast(text.replace('"resumed": 0', '"resumed":   0'), 'ok');
  });

  it('a byte that is not UTF-8, in the header or in a record, is refused by both paths', () => {
    for (const [from, what] of [
      ['"owner": "me"', 'header'],
      ['"note":"iteration 9:', 'record'],
    ] as const) {
      const at = Buffer.from(text.slice(0, text.indexOf(from) + from.length - 2), 'utf8').length;
      const bytes = Buffer.from(text, 'utf8');
      bytes[at] = 0xff;
      writeFileSync(file(), bytes);
      assert.equal(readSealedLedger(file(), 's1'), null, what);
      const full = readLedgerFile(file());
      assert.equal(full.kind, 'corrupt', what);
      if (full.kind === 'corrupt') assert.match(full.reason, /not valid UTF-8/);
    }
  });

  it('a schema_version newer than this build, or none (the original format), takes the full path', () => {
    refusedFast(text.replace('"schema_version": 1', '"schema_version": 2'), 'too-new');
    const original = text.replace(/,\n {2}"schema_version": 1/, '');
    assert.notEqual(original, text);
    refusedFast(original, 'ok');
    assert.equal((readLedgerFile(file()) as { format: string }).format, 'original');
  });

  it('a file an older build or the original engine rewrote (stale summary kept) takes the full path', () => {
    // An older build sealed the records alone and kept records_summary as an unknown key.
    const records = recordLines(text).lines.join(',\n    ');
    const older = text.replace(
      /"records_sha256": "[0-9a-f]{64}"/,
      `"records_sha256": "${createHash('sha256').update(records, 'utf8').digest('hex')}"`,
    );
    assert.notEqual(older, text);
    refusedFast(older, 'ok');
    // The original engine re-indents everything (json.dump, indent 2, sorted keys) and keeps both keys.
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const sorted = Object.fromEntries(
      Object.keys(parsed)
        .sort()
        .map((k) => [k, parsed[k]]),
    );
    refusedFast(`${JSON.stringify(sorted, null, 2)}\n`, 'ok');
  });

  it('the seal starts at DIGEST_MIN_BYTES of records: just under it, no seal and no fast path', () => {
    const sized = (records: number): string => serializeLedger(variedLedger(records));
    const bytesOfRecords = (t: string): number => {
      const parts = recordLines(t);
      return Buffer.byteLength(parts.lines.join(',\n    '));
    };
    let count = 2;
    while (bytesOfRecords(sized(count + 1)) < DIGEST_MIN_BYTES) count += 1;
    const under = sized(count);
    const over = sized(count + 1);
    assert.ok(bytesOfRecords(under) < DIGEST_MIN_BYTES && bytesOfRecords(over) >= DIGEST_MIN_BYTES);
    assert.doesNotMatch(under, /records_sha256|records_summary/);
    refusedFast(under, 'ok');
    write(over);
    assert.ok(readSealedLedger(file(), 's1'), 'just over the threshold the seal is written and read');
  });

  it('a dimension or signature named __proto__ stays a plain key through the summary', () => {
    const records = JSON.parse(
      JSON.stringify(ledger.iterations).replace(
        /"measurements":\{"coverage":/g,
        '"measurements":{"__proto__":',
      ),
    ) as IterationRecord[];
    const odd = { ...ledger, iterations: records };
    write(serializeLedger(odd));
    const sealed = readSealedLedger(file(), 's1');
    assert.ok(sealed);
    assert.deepEqual(Object.keys(sealed.summary.measurements ?? {}), ['__proto__']);
    assert.equal(JSON.stringify(sealed.summary), JSON.stringify(summarizeRecords(records)));
    // what the engine takes from it: the baseline of the next measured iteration
    const baseline = deriveBaseline(sealed.ledger, sealed.summary);
    assert.deepEqual(Object.keys(baseline), ['__proto__']);
    assert.equal(typeof Object.getOwnPropertyDescriptor(baseline, '__proto__')?.value, 'number');
  });

  it('lists kept after the records (other parts’ keys) do not hide where the records end', () => {
    const objects = serializeLedger({ ...ledger, zz_list: [{ a: 1 }, 'x', [2]] } as Ledger);
    write(objects);
    assert.ok(readSealedLedger(file(), 's1'), 'a pretty-printed list of objects after the records');
    // `{}` on a line of its own ends `}\n  ]` like the records do; no record is empty, so it is
    // passed over (it used to send every read of such a ledger to the full path).
    write(serializeLedger({ ...ledger, zz_list: [1, {}] } as Ledger));
    assert.ok(readSealedLedger(file(), 's1'), 'a list ending in {} after the records');
  });

  it('a ledger saved by the full path is sealed and re-read sealed (unicode records included)', () => {
    saveLedgerFile(file(), ledger);
    assert.equal(readFileSync(file(), 'utf8'), text);
    assert.ok(readSealedLedger(file(), 's1'));
  });
});
