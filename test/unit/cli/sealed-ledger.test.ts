// `status` and `iterate` through the real CLI on a long ledger: read through its seal (the fast
// path) they print and write exactly what the full path does on the same ledger with the seal
// stripped; a seal broken by a hand edit is noticed and the true records are reported.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { summarizeRecords } from '../../../src/engine/records-summary';
import type { IterationRecord } from '../../../src/engine/types';
import { readLedgerFile, serializeLedger } from '../../../src/store/ledger-file';
import { readSealedLedger } from '../../../src/store/ledger-sealed';
import { DIGEST_MIN_BYTES } from '../../../src/store/records-digest';
import { runCli, runCliAsync, tempRoot } from '../helpers/cli';
import { sampleLedger } from '../store/fixtures/sample-ledger';
import { assertNoStack } from './setup';

const COUNT = Math.ceil(DIGEST_MIN_BYTES / 500);
const ledgerAt = (root: string): string => join(root, '.loop', 'ledgers', 's1.json');

/** A sealed long ledger with a judged record, stalls and two epochs, in a fresh root. */
function sealedRoot(text: string): string {
  const root = tempRoot('loop-ledger-sealed-cli-');
  mkdirSync(join(root, '.loop', 'ledgers'), { recursive: true });
  writeFileSync(ledgerAt(root), text);
  return root;
}

/**
 * Seconds-precision stamps may differ between two runs (and so the digest over them); nothing
 * else may. The byte-exact comparison, digest included, is test/unit/app/sealed-append.test.ts's
 * (it fixes `now`).
 */
const stampless = (text: string): string =>
  text
    .replace(/"timestamp": ?"[0-9T:Z-]+"/g, '"timestamp":"-"')
    .replace(/\n {2}"records_sha256": "[0-9a-f]{64}",/, '');

describe('cli: status and iterate on a sealed long ledger', function () {
  this.timeout(120_000);
  const ledger = sampleLedger('s1', COUNT);
  ledger.contract.iteration_limit = 100_000;
  ledger.iterations = ledger.iterations.map((r, i): IterationRecord => ({
    ...r,
    epoch: i >= COUNT - 3 ? 2 : 1,
    stall: i % 97 === 0 ? 'repeated-error' : null,
    decision: i === COUNT - 10 ? 'retain' : null,
    error_signature: i === COUNT - 1 ? 'deadbeefdeadbeef' : null,
  }));
  ledger.epoch = 2;
  const text = serializeLedger(ledger);
  const unsealed = text.replace(/\n {2}"records_sha256": "[0-9a-f]{64}",/, '');

  it('status prints the same JSON and human line through the seal as in full', () => {
    const fast = sealedRoot(text);
    const full = sealedRoot(unsealed);
    assert.ok(readSealedLedger(ledgerAt(fast), 's1'));
    assert.equal(readSealedLedger(ledgerAt(full), 's1'), null);
    for (const args of [['--json'], []]) {
      const a = runCli(['status', '--root', fast, '--session', 's1', ...args]);
      const b = runCli(['status', '--root', full, '--session', 's1', ...args]);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(a.stdout, b.stdout);
      assert.equal(a.stderr, b.stderr);
    }
    const json = runCli(['status', '--root', fast, '--session', 's1', '--json']).json;
    assert.equal(json.iterations, COUNT);
    assert.equal(json.quality_from, COUNT - 9);
    assert.equal(json.decision, 'retain');
    assert.equal(json.stalls.length, Math.ceil(COUNT / 97));
  });

  it('iterate prints and writes the same through the seal as in full (stall predicates included)', () => {
    const fast = sealedRoot(text);
    const full = sealedRoot(unsealed);
    const flags = ['--outcome', 'continue', '--state', 'S', '--error', 'E1', '--json'];
    for (const extra of [
      ['--action', 'a1'],
      ['--action', 'a2'],
      ['--action', 'a3'],
    ]) {
      const a = runCli(['iterate', '--root', fast, '--session', 's1', ...flags, ...extra]);
      const b = runCli(['iterate', '--root', full, '--session', 's1', ...flags, ...extra]);
      assert.equal(a.code, b.code, `${a.stderr} / ${b.stderr}`);
      assert.equal(stampless(a.stdout), stampless(b.stdout));
      assert.equal(
        stampless(readFileSync(ledgerAt(fast), 'utf8')),
        stampless(readFileSync(ledgerAt(full), 'utf8')),
      );
      // the full copy is sealed by its write; strip it again so it stays on the full path
      writeFileSync(
        ledgerAt(full),
        readFileSync(ledgerAt(full), 'utf8').replace(/\n {2}"records_sha256": "[0-9a-f]{64}",/, ''),
      );
    }
    const last = runCli(['status', '--root', fast, '--session', 's1', '--json']).json;
    // the second --state S is circular (revise closes the loop); the third iterate is refused
    assert.equal(last.status, 'closed');
    assert.equal(last.iterations, COUNT + 2);
  });

  it('concurrent iterates on a sealed ledger all land, in order, and leave it sealed and true', async () => {
    const root = sealedRoot(text);
    const writers = 6;
    const landed = new Set<string>();
    for (let round = 0; round < 5 && landed.size < writers; round += 1) {
      const pending = Array.from({ length: writers }, (_, i) => `w${i}`).filter((a) => !landed.has(a));
      const results = await Promise.all(
        pending.map((action) =>
          runCliAsync([
            'iterate',
            '--root',
            root,
            '--session',
            's1',
            '--outcome',
            'continue',
            '--action',
            action,
          ]),
        ),
      );
      results.forEach((r, i) => {
        // 3: the lock stayed busy past the wait (a loaded machine); the writer retries, as an agent would
        assert.ok(r.code === 0 || r.code === 3, `exit ${r.code}: ${r.stderr}`);
        if (r.code === 0) landed.add(pending[i] as string);
      });
    }
    assert.equal(landed.size, writers);
    const full = readLedgerFile(ledgerAt(root));
    if (full.kind !== 'ok') throw new Error(`unreadable: ${JSON.stringify(full)}`);
    assert.equal(full.ledger.iterations.length, COUNT + writers);
    full.ledger.iterations.forEach((r, i) => assert.equal(r.n, i + 1));
    const sealed = readSealedLedger(ledgerAt(root), 's1');
    assert.ok(sealed, 'still sealed after concurrent appends');
    assert.equal(JSON.stringify(sealed.summary), JSON.stringify(summarizeRecords(full.ledger.iterations)));
  });

  it('a summary edited by hand is not believed: status reports the records', () => {
    const edited = text.replace(/"records_summary": \{"count":\d+/, '"records_summary": {"count":5');
    assert.notEqual(edited, text);
    const root = sealedRoot(edited);
    const r = runCli(['status', '--root', root, '--session', 's1', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.iterations, COUNT);
  });

  it('a ledger the original engine wrote: status reads it in full; the first iterate leaves it sealed', () => {
    // The original's layout: Python's json.dumps(indent=2, sort_keys=True), no version, no seal
    // (for ASCII text, JSON.stringify with an indent of 2 over sorted keys writes the same bytes).
    const sorted = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(sorted)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(
              Object.keys(value)
                .sort()
                .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
            )
          : value;
    const plain: Record<string, unknown> = { ...ledger };
    delete plain.schema_version;
    const root = sealedRoot(`${JSON.stringify(sorted(plain), null, 2)}\n`);
    const read = readLedgerFile(ledgerAt(root));
    assert.equal(read.kind === 'ok' && read.format, 'original');
    assert.equal(readSealedLedger(ledgerAt(root), 's1'), null);
    const first = runCli(['status', '--root', root, '--session', 's1', '--json']);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.json.iterations, COUNT);
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
    const sealed = readSealedLedger(ledgerAt(root), 's1');
    assert.ok(sealed, 'sealed by the first write');
    assert.equal(sealed.summary.count, COUNT + 1);
    const full = readLedgerFile(ledgerAt(root));
    if (full.kind !== 'ok') throw new Error(`unreadable: ${JSON.stringify(full)}`);
    assert.equal(full.format, 'loop-ledger');
    assert.equal(JSON.stringify(sealed.summary), JSON.stringify(summarizeRecords(full.ledger.iterations)));
    const second = runCli(['status', '--root', root, '--session', 's1', '--json']);
    assert.equal(second.json.iterations, COUNT + 1);
  });

  it('a record edited under the old seal is refused with the full path’s message, and nothing is written', () => {
    const root = sealedRoot(text.replace('"n":3,', '"n":"3",'));
    const before = readFileSync(ledgerAt(root), 'utf8');
    for (const cmd of [['status'], ['iterate', '--outcome', 'continue']]) {
      const r = runCli([...cmd, '--root', root, '--session', 's1']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /iterations\[2\]\.n/);
      assertNoStack(r.stderr);
    }
    assert.equal(readFileSync(ledgerAt(root), 'utf8'), before);
  });
});
