// The benchmark's switch (LOOP_LEDGER_BENCH_PLAIN) replaces a fast path by the plain call it
// stands in for: the answers must not change, only the time (bench/pieces.mjs times both).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clearPlainPieces, usePlainPieces } from '../../../src/engine/plain-pieces';
import { sha256 } from '../../../src/engine/sha';
import { serializeLedger } from '../../../src/store/ledger-file';
import { readSealedLedger } from '../../../src/store/ledger-sealed';
import { DIGEST_MIN_BYTES } from '../../../src/store/records-digest';
import { runCli, tempRoot } from '../helpers/cli';
import { originalText, sampleLedger } from '../store/fixtures/sample-ledger';

describe('cli: the benchmark’s plain variants answer the same', function () {
  this.timeout(120_000);
  afterEach(clearPlainPieces);

  it('status through the seal and the code cache, or in full and compiled: the same output', () => {
    const root = tempRoot('loop-ledger-plain-');
    mkdirSync(join(root, '.loop', 'ledgers'), { recursive: true });
    const path = join(root, '.loop', 'ledgers', 's1.json');
    const ledger = sampleLedger('s1', Math.ceil(DIGEST_MIN_BYTES / 500));
    writeFileSync(path, serializeLedger(ledger));
    assert.ok(readSealedLedger(path, 's1'), 'sealed');
    for (const args of [['--json'], []]) {
      const built = runCli(['status', '--root', root, '--session', 's1', ...args]);
      const plain = runCli(['status', '--root', root, '--session', 's1', ...args], {
        env: { LOOP_LEDGER_BENCH_PLAIN: 'seal,code-cache' },
      });
      assert.equal(built.code, 0, built.stderr);
      assert.deepEqual(plain, built);
    }
  });

  it('a ledger the original engine wrote, keys proved by WebAssembly or counted in JavaScript: the same answers', () => {
    const root = tempRoot('loop-ledger-plain-keys-');
    mkdirSync(join(root, '.loop', 'ledgers'), { recursive: true });
    const path = join(root, '.loop', 'ledgers', 's1.json');
    const indented = `${JSON.stringify(sampleLedger('s1', 200), null, 2)}\n`;
    const repeated = indented.replace('"status": "open"', '"status": "open",\n  "status": "closed"');
    assert.notEqual(repeated, indented);
    for (const text of [indented, repeated]) {
      writeFileSync(path, text);
      const built = runCli(['status', '--root', root, '--session', 's1', '--json']);
      const plain = runCli(['status', '--root', root, '--session', 's1', '--json'], {
        env: { LOOP_LEDGER_BENCH_PLAIN: 'keys-wasm' },
      });
      assert.equal(built.code, text === indented ? 0 : 2, built.stderr);
      if (text === repeated) assert.match(built.stderr, /"status" twice at the top level/);
      assert.deepEqual(plain, built);
    }
  });

  it('a long ledger the original engine wrote, read record by record or in full: the same answers and the same file', () => {
    const root = tempRoot('loop-ledger-plain-sliced-');
    mkdirSync(join(root, '.loop', 'ledgers'), { recursive: true });
    const path = join(root, '.loop', 'ledgers', 's1.json');
    const original = originalText(sampleLedger('s1', Math.ceil(DIGEST_MIN_BYTES / 600)));
    const broken = original.replace('"n": 9,', '"n": "9",');
    assert.notEqual(broken, original);
    const at = ['--root', root, '--session', 's1'];
    for (const text of [original, broken]) {
      const answers = ['', 'sliced'].map((plain) => {
        const env = { LOOP_LEDGER_BENCH_PLAIN: plain };
        writeFileSync(path, text);
        const status = runCli(['status', ...at, '--json'], { env });
        const human = runCli(['status', ...at], { env });
        const iterate = runCli(['iterate', ...at, '--outcome', 'continue', '--action', 'x', '--json'], {
          env,
        });
        // The new record's time stamp (in the record and in the summary), and so the seal over
        // it, is the only difference allowed: the fixture's records are all stamped 2025-01-01.
        const file = readFileSync(path, 'utf8')
          .replace(/"timestamp": ?"(?!2025-01-01T00:00:00Z)[^"]*"/g, '')
          .replace(/"records_sha256": "[0-9a-f]+"/, '');
        return {
          status,
          human,
          iterate: {
            code: iterate.code,
            stderr: iterate.stderr,
            stdout: iterate.stdout.replace(/"timestamp": ?"[^"]*"/g, ''),
          },
          file,
        };
      });
      const [built, plain] = answers as [(typeof answers)[0], (typeof answers)[0]];
      assert.equal(built.status.code, text === original ? 0 : 2, built.status.stderr);
      if (text === broken) assert.match(built.status.stderr, /iterations\[8\]\.n/);
      assert.deepEqual(plain, built);
    }
  });

  it('SHA-256 by node:crypto alone gives the tiers’ digests at every size', () => {
    const sizes = [0, 1, 55, 64, 2047, 2048, 2049, 100_000, 256 * 1024, 256 * 1024 + 1, 300_000];
    const texts = sizes.map((size) => 'ab\u00e9'.repeat(size).slice(0, size));
    const digest = (text: string) => sha256().update(text, 'latin1').digest('hex');
    const tiers = texts.map(digest);
    usePlainPieces('sha-tiers');
    assert.deepEqual(texts.map(digest), tiers);
  });
});
