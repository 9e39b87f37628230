import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSessions } from '../../../src/store/discover';
import { readLedgerFile, serializeLedger } from '../../../src/store/ledger-file';
import { readSessionsAsync } from '../../../src/extension/sessions/sessionEntry';
import { sampleLedger } from './fixtures/sample-ledger';
import { LEDGER_SIZE_LIMIT } from '../../../src/store/limits';
import {
  listLedgerFilesAsync,
  readLedgerFileAsync,
  readLedgerFileTimedAsync,
  readSessionLedgerAsync,
} from '../../../src/store/read-async';
import { tempRoot } from '../helpers/cli';

const ledger = (session: string) => serializeLedger(sampleLedger(session, 1));

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

  it('gives exactly the synchronous verdicts for a folder, a symlink, a FIFO and a file over the cap', async () => {
    const root = tempRoot();
    mkdirSync(join(root, 'dir.json'));
    writeFileSync(join(root, 'target.json'), ledger('target'));
    symlinkSync(join(root, 'target.json'), join(root, 'link.json'));
    symlinkSync('/dev/zero', join(root, 'zero.json'));
    execFileSync('mkfifo', [join(root, 'fifo.json')]); // no writer: opening must not wait for one
    const huge = join(root, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, LEDGER_SIZE_LIMIT + 1); // sparse: nothing is allocated
    for (const name of ['dir', 'link', 'zero', 'fifo', 'huge', 'target']) {
      const path = join(root, `${name}.json`);
      const sync = readLedgerFile(path);
      assert.deepEqual(await readLedgerFileAsync(path), sync, name);
      if (name !== 'target') assert.equal(sync.kind, 'corrupt', name);
    }
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

  it('lists a ledger named after a Windows device as list does, and the tree shows it unread, with the reason', async () => {
    const root = tempRoot();
    const original = join(root, '.claude', '.runtime', 'work-loop');
    mkdirSync(original, { recursive: true });
    writeFileSync(join(original, 'con.json'), ledger('con'));
    assert.deepEqual(
      (await listLedgerFilesAsync(root)).map((f) => f.session),
      listSessions(root).map((s) => s.session),
    );
    const [only] = await readSessionsAsync(root);
    assert.equal(only?.entry.kind, 'broken');
    assert.match(only?.entry.kind === 'broken' ? only.entry.problem : '', /is a Windows device name/);
  });
});
