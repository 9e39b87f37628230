// The records digest (src/store/records-digest.ts): a long ledger written by the store carries
// the SHA-256 of its records' text, and a read whose digest matches skips re-checking those
// records. Every change to the records' text must send the read down the full check.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { parseLedgerText, serializeLedger } from '../../../src/store/ledger-file';
import { DIGEST_MIN_BYTES, RECORDS_DIGEST_KEY, RECORDS_SUMMARY_KEY } from '../../../src/store/records-digest';
import { sampleLedger } from './fixtures/sample-ledger';

/** Enough records for their text to pass DIGEST_MIN_BYTES (each is about 600 bytes). */
const LONG = Math.ceil(DIGEST_MIN_BYTES / 500);

function read(text: string): ReturnType<typeof parseLedgerText> {
  return parseLedgerText(text, 's1');
}

function recordsSpan(text: string): string {
  const open = '\n  "iterations": [\n    ';
  const start = text.indexOf(open) + open.length;
  return text.slice(start, text.indexOf('\n  ]', start));
}

describe('store: records digest', () => {
  const text = serializeLedger(sampleLedger('s1', LONG));
  const header = JSON.parse(text) as Record<string, unknown>;

  /** SHA-256 of the records' bytes, a newline, and the summary exactly as the header holds it. */
  function sealOf(fileText: string): string {
    const summary = JSON.stringify((JSON.parse(fileText) as Record<string, unknown>)[RECORDS_SUMMARY_KEY]);
    return createHash('sha256')
      .update(`${recordsSpan(fileText)}\n${summary}`, 'utf8')
      .digest('hex');
  }

  it('a long ledger carries the SHA-256 of exactly its records text and summary; a short one carries neither', () => {
    const expected = sealOf(text);
    assert.equal(header[RECORDS_DIGEST_KEY], expected);
    const short = JSON.parse(serializeLedger(sampleLedger('s1', 3))) as Record<string, unknown>;
    assert.equal(RECORDS_DIGEST_KEY in short, false);
    assert.equal(RECORDS_SUMMARY_KEY in short, false);
  });

  it('a matching digest reads the same ledger the full check reads', () => {
    const fast = read(text);
    const withoutDigest = text.replace(/,\n {2}"records_sha256": "[0-9a-f]{64}"/, '');
    assert.notEqual(withoutDigest, text);
    const full = read(withoutDigest);
    assert.equal(fast.kind, 'ok');
    assert.equal(full.kind, 'ok');
    if (fast.kind !== 'ok' || full.kind !== 'ok') return;
    const { [RECORDS_DIGEST_KEY]: digest, ...rest } = fast.ledger as unknown as Record<string, unknown>;
    assert.equal(typeof digest, 'string');
    assert.deepEqual(
      rest[RECORDS_SUMMARY_KEY],
      (full.ledger as unknown as Record<string, unknown>)[RECORDS_SUMMARY_KEY],
    );
    assert.deepEqual(rest, full.ledger);
    assert.deepEqual(fast.records, full.records);
  });

  it('a record edited after writing (digest left as it was) is checked and refused', () => {
    const badType = text.replace('"n":7,', '"n":"7",');
    assert.notEqual(badType, text);
    const r1 = read(badType);
    assert.equal(r1.kind, 'corrupt');
    if (r1.kind === 'corrupt') assert.match(r1.reason, /iterations\[6\]\.n/);

    const renumbered = text.replace('"n":7,', '"n":70,');
    const r2 = read(renumbered);
    assert.equal(r2.kind, 'corrupt');
    if (r2.kind === 'corrupt') assert.match(r2.reason, /records are numbered/);
  });

  it('a key repeated inside a record after writing (digest left as it was) is refused', () => {
    const first = '{"actions":["action-1"]';
    const doubled = text.replace(first, `{"note":"x",${first.slice(1)}`);
    const stale = read(doubled);
    assert.equal(stale.kind, 'corrupt');
    if (stale.kind === 'corrupt') assert.match(stale.reason, /"note" twice in iterations\[0\]/);
  });

  it('the rest of the file is checked in full under a matching digest', () => {
    const badStatus = text.replace('"status": "open"', '"status": "opened"');
    const r1 = read(badStatus);
    assert.equal(r1.kind, 'corrupt');
    if (r1.kind === 'corrupt') assert.match(r1.reason, /at status/);
    const dupTop = text.replace(/\n}\n$/, ',\n  "status": "closed"\n}\n');
    const r2 = read(dupTop);
    assert.equal(r2.kind, 'corrupt');
    if (r2.kind === 'corrupt') assert.match(r2.reason, /"status" twice at the top level/);
  });

  it('a digest that is not a string, or is wrong, takes the full check and still reads a good ledger', () => {
    for (const value of ['"0000"', '12', 'null']) {
      const other = text.replace(/"records_sha256": "[0-9a-f]{64}"/, `"records_sha256": ${value}`);
      assert.equal(read(other).kind, 'ok');
    }
  });

  it('writing a ledger read with a digest replaces it with the digest of what is written', () => {
    const first = read(text);
    if (first.kind !== 'ok') throw new Error('unreadable');
    const shortened = { ...first.ledger, iterations: first.ledger.iterations.slice(0, 3) };
    assert.equal(RECORDS_DIGEST_KEY in (JSON.parse(serializeLedger(shortened)) as object), false);
    const grown = {
      ...first.ledger,
      iterations: [...first.ledger.iterations, { ...first.ledger.iterations[0]!, n: LONG + 1 }],
    };
    const rewritten = serializeLedger(grown, {
      text,
      iterations: first.ledger.iterations,
      records: first.records,
    });
    const expected = sealOf(rewritten);
    assert.equal((JSON.parse(rewritten) as Record<string, unknown>)[RECORDS_DIGEST_KEY], expected);
    assert.notEqual(expected, header[RECORDS_DIGEST_KEY]);
    assert.equal(read(rewritten).kind, 'ok');
  });
});
