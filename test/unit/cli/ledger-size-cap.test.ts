// A write never leaves a ledger over LEDGER_SIZE_LIMIT: every reader refuses such a file, so an
// `iterate` that crossed the cap used to lock the loop out of its own ledger (every command after
// it exited 2, "over the 256 MiB ledger size limit"). Through the real CLI, on the sealed (fast)
// path and on the full path.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { IterationRecord, Ledger } from '../../../src/engine/types';
import { serializeLedger } from '../../../src/store/ledger-file';
import { readSealedLedger } from '../../../src/store/ledger-sealed';
import { LEDGER_SIZE_LIMIT } from '../../../src/store/limits';
import { ledgerPath } from '../helpers/cli';
import { assertNoStack, loopWith, type Loop } from './setup';

const NOTE_CHUNK = 8 * 1024 * 1024;

/** Fills the loop's ledger with records until the file is `room` bytes under the cap. */
function fillTo(loop: Loop, room: number): void {
  const path = ledgerPath(loop.root, loop.session);
  const ledger = JSON.parse(readFileSync(path, 'utf8')) as Ledger;
  const last = ledger.iterations[ledger.iterations.length - 1] as IterationRecord;
  const add = (note: string): void => {
    ledger.iterations.push({ ...last, n: ledger.iterations.length + 1, note });
  };
  // a chunk record costs its note plus the record's other keys (well under 4 KiB)
  const chunks = Math.floor((LEDGER_SIZE_LIMIT - 2 * NOTE_CHUNK) / (NOTE_CHUNK + 4096));
  for (let i = 0; i < chunks; i += 1) add('y'.repeat(NOTE_CHUNK));
  add('');
  const short = LEDGER_SIZE_LIMIT - room - Buffer.byteLength(serializeLedger(ledger));
  assert.ok(short > 0);
  (ledger.iterations[ledger.iterations.length - 1] as IterationRecord).note = 'z'.repeat(short);
  // the digest and summary do not change length with the note's
  writeFileSync(path, serializeLedger(ledger));
  assert.equal(statSync(path).size, LEDGER_SIZE_LIMIT - room);
}

const digestOf = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('cli: no write leaves a ledger over the size limit', function () {
  this.timeout(240_000);

  it('iterate (through the seal and in full) and close are refused, nothing written; a write that fits lands', () => {
    const loop = loopWith({ iteration_limit: 1000 });
    assert.equal(loop.cli('iterate', '--outcome', 'continue').code, 0);
    const path = ledgerPath(loop.root, loop.session);
    try {
      fillTo(loop, 2000);
      assert.ok(readSealedLedger(path, loop.session), 'the filled ledger is read through its seal');
      const before = digestOf(path);
      const over: [string, ...string[]] = ['iterate', '--outcome', 'continue', '--note', 'n'.repeat(3000)];
      const fast = loop.cli(...over);
      assert.equal(fast.code, 2, fast.stderr);
      assert.match(fast.stderr, /over the 256 MiB ledger size limit; nothing was written/);
      assertNoStack(fast.stderr);
      assert.equal(digestOf(path), before);
      // the full path: a BOM keeps the seal from being used
      writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(path)]));
      const beforeFull = digestOf(path);
      assert.equal(readSealedLedger(path, loop.session), null);
      const full = loop.cli(...over);
      assert.equal(full.code, 2, full.stderr);
      assert.match(full.stderr, /over the 256 MiB ledger size limit; nothing was written/);
      assert.equal(digestOf(path), beforeFull);
      const close = loop.cli('close', '--outcome', 'stop', '--note', 'n'.repeat(3000));
      assert.equal(close.code, 2, close.stderr);
      assert.equal(digestOf(path), beforeFull);
      // still readable, and a write that fits still lands
      assert.equal(loop.cli('status').code, 0);
      const fits = loop.cli('iterate', '--outcome', 'continue');
      assert.equal(fits.code, 0, fits.stderr);
      assert.ok(statSync(path).size <= LEDGER_SIZE_LIMIT);
      assert.equal(
        loop.cli('status', '--json').json.iterations,
        JSON.parse(readFileSync(path, 'utf8')).iterations.length,
      );
    } finally {
      rmSync(loop.root, { recursive: true, force: true });
    }
  });
});
