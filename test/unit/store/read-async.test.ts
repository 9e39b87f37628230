import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LEDGER_SIZE_LIMIT } from '../../../src/store/limits';
import {
  listLedgerFilesAsync,
  readLedgerFileAsync,
  readLedgerFileTimedAsync,
  readSessionLedgerAsync,
} from '../../../src/store/read-async';
import { tempRoot } from '../helpers/cli';

const ledger = (session: string) =>
  JSON.stringify({ schema_version: 1, session, contract: {}, iterations: [], status: 'open' });

describe("store: asynchronous ledger reads (the extension host's reader)", () => {
  it('reads a ledger, and gives the same verdicts as the synchronous reader for bad files', async () => {
    const root = tempRoot();
    const ok = join(root, 'ok.json');
    writeFileSync(ok, `\ufeff${ledger('ok')}`);
    const read = await readLedgerFileTimedAsync(ok);
    assert.equal(read.read.kind, 'ok');
    assert.ok(read.mtimeMs > 0);
    assert.deepEqual(await readLedgerFileAsync(join(root, 'missing.json')), { kind: 'absent' });
    writeFileSync(join(root, 'bad.json'), '{"session": ');
    assert.match(JSON.stringify(await readLedgerFileAsync(join(root, 'bad.json'))), /not valid JSON/);
    writeFileSync(join(root, 'latin1.json'), Buffer.from([0x7b, 0xff, 0x7d]));
    assert.deepEqual(await readLedgerFileAsync(join(root, 'latin1.json')), {
      kind: 'corrupt',
      reason: 'is not valid UTF-8 text',
    });
  });

  it('refuses a folder and a file over the size cap without reading it', async () => {
    const root = tempRoot();
    mkdirSync(join(root, 'dir.json'));
    assert.deepEqual(await readLedgerFileAsync(join(root, 'dir.json')), {
      kind: 'corrupt',
      reason: 'is not a regular file',
    });
    const huge = join(root, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, LEDGER_SIZE_LIMIT + 1); // sparse: nothing is allocated
    const read = await readLedgerFileAsync(huge);
    assert.equal(read.kind, 'corrupt');
    assert.match((read as { reason: string }).reason, /over the 256 MiB limit/);
  });

  it("lists .loop ledgers before the original engine's of the same id, skipping non-ledgers", async () => {
    const root = tempRoot();
    const mine = join(root, '.loop', 'ledgers');
    const original = join(root, '.claude', '.runtime', 'work-loop');
    mkdirSync(mine, { recursive: true });
    mkdirSync(original, { recursive: true });
    writeFileSync(join(mine, 'a.json'), ledger('a'));
    writeFileSync(join(mine, 'a.json.lock'), '');
    writeFileSync(join(mine, '.a.json.1.tmp'), '');
    writeFileSync(join(original, 'a.json'), ledger('a'));
    writeFileSync(join(original, 'b.json'), ledger('b'));
    mkdirSync(join(mine, 'c.json'));
    symlinkSync(join(original, 'b.json'), join(mine, 'd.json'));
    const listed = await listLedgerFilesAsync(root);
    assert.deepEqual(
      listed.map((f) => [f.session, f.legacy]),
      [
        ['a', false],
        ['b', true],
        ['d', false],
      ],
    );
    const located = await readSessionLedgerAsync(root, 'b');
    assert.equal(located?.ref.legacy, true);
    assert.equal(await readSessionLedgerAsync(root, 'zzz'), null);
  });
});
