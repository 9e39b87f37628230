// The store's reads are written once as steps (read-steps.ts) and run by two drivers that only
// do I/O: read-sync.ts for the CLI, read-async.ts for the extension host. Both must answer every
// request alike, throw a failing call into the step that asked, and leave no file open however
// the step ends.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLedgerHead } from '../../../src/store/ledger-file';
import { sessionLedgerSteps } from '../../../src/store/locate';
import { ledgerFileSteps, type FolderEntry, type ReadSteps } from '../../../src/store/read-steps';
import { runReadAsync } from '../../../src/store/read-async';
import { runReadSync } from '../../../src/store/read-sync';
import { tempRoot } from '../helpers/cli';

const openFiles = (): number => readdirSync('/proc/self/fd').length;

/** Opens `path`, reads one byte, then fails (or not) without closing: the driver must close. */
function* leaky(path: string, fail: boolean): ReadSteps<string> {
  yield { kind: 'open', path };
  const buffer = Buffer.alloc(1);
  const got = (yield { kind: 'read', buffer, offset: 0, length: 1 }) as number;
  if (fail) throw new Error('the step failed');
  return buffer.toString('utf8', 0, got);
}

/** What a failing open throws into the step, as the step sees it. */
function* openError(path: string): ReadSteps<string> {
  try {
    yield { kind: 'open', path };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'no code';
  }
  yield { kind: 'close' };
  return 'opened';
}

function* folderAndExists(dir: string): ReadSteps<[string[], boolean, boolean]> {
  const entries = (yield { kind: 'entries', dir }) as FolderEntry[];
  const names = entries.map((e) => `${e.name}${e.directory ? '/' : ''}`).sort();
  const there = (yield { kind: 'exists', path: join(dir, 'a.txt') }) as boolean;
  const gone = (yield { kind: 'exists', path: join(dir, 'nothing') }) as boolean;
  return [names, there, gone];
}

describe('store: one read rule, a synchronous and an asynchronous driver', () => {
  const root = tempRoot('loop-ledger-read-steps-');
  const file = join(root, 'a.txt');
  before(() => {
    writeFileSync(file, 'xyz');
    mkdirSync(join(root, 'sub'));
  });

  it('answers every request alike in both drivers', async () => {
    assert.deepEqual(runReadSync(folderAndExists(root)), [['a.txt', 'sub/'], true, false]);
    assert.deepEqual(await runReadAsync(folderAndExists(root)), runReadSync(folderAndExists(root)));
    assert.deepEqual(runReadSync(folderAndExists(join(root, 'missing'))), [[], false, false]);
    assert.deepEqual(await runReadAsync(folderAndExists(join(root, 'missing'))), [[], false, false]);
    for (const path of [file, join(root, 'missing'), join(root, 'sub')]) {
      assert.deepEqual(
        await runReadAsync(ledgerFileSteps(path)).then((r) => r.read),
        runReadSync(ledgerFileSteps(path)).read,
      );
    }
  });

  it('throws a failing open into the step that asked, with the system error', async () => {
    assert.equal(runReadSync(openError(join(root, 'missing'))), 'ENOENT');
    assert.equal(await runReadAsync(openError(join(root, 'missing'))), 'ENOENT');
    assert.equal(runReadSync(openError(file)), 'opened');
  });

  it('closes the file a step left open, whether it returned or threw', async () => {
    const before = openFiles();
    assert.equal(runReadSync(leaky(file, false)), 'x');
    assert.throws(() => runReadSync(leaky(file, true)), /the step failed/);
    assert.equal(await runReadAsync(leaky(file, false)), 'x');
    await assert.rejects(runReadAsync(leaky(file, true)), /the step failed/);
    assert.equal(openFiles(), before, 'no descriptor left open');
  });

  it("locates a session's ledger as the writers do in both drivers: a dangling .loop link yields to the original engine's file", async () => {
    const ws = tempRoot('loop-ledger-read-steps-locate-');
    mkdirSync(join(ws, '.loop', 'ledgers'), { recursive: true });
    mkdirSync(join(ws, '.claude', '.runtime', 'work-loop'), { recursive: true });
    writeFileSync(join(ws, '.claude', '.runtime', 'work-loop', 's1.json'), '{}');
    symlinkSync(join(ws, 'nowhere.json'), join(ws, '.loop', 'ledgers', 's1.json'));
    const sync = runReadSync(sessionLedgerSteps(ws, 's1'));
    const async = await runReadAsync(sessionLedgerSteps(ws, 's1'));
    assert.equal(sync.location.legacy, true);
    assert.deepEqual(async.location, sync.location);
    assert.deepEqual(async.read, sync.read);
  });
});

describe('store: a ledger head read (iterate looks at the contract before its lock)', () => {
  it('gives the first bytes of a long file, all of a short one, and null for a FIFO without waiting', () => {
    const root = tempRoot();
    const long = join(root, 'long.json');
    writeFileSync(long, 'x'.repeat(300_000));
    const short = join(root, 'short.json');
    writeFileSync(short, '{"contract": {}}');
    assert.equal(readLedgerHead(long, 1024)?.length, 1024);
    assert.equal(readLedgerHead(short, 1024)?.toString('utf8'), '{"contract": {}}');
    assert.equal(readLedgerHead(join(root, 'missing.json'), 1024), null);
    const fifo = join(root, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    assert.equal(readLedgerHead(fifo, 1024), null);
    const link = join(root, 'link.json');
    symlinkSync(short, link);
    assert.equal(readLedgerHead(link, 1024), null, 'no link followed');
  });
});
