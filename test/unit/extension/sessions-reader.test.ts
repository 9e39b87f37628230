// The Sessions tree reads its ledgers in a worker thread: the entries it gets are exactly the
// inline reader's (a long ledger, sent in parts, arrives whole and in order; an unreadable ledger
// keeps its reason; a key JSON.parse kept as an own property stays one), a long ledger crosses
// in many messages (the host's thread turns between them), and without a worker (or with one that cannot
// start) the tree still fills.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readSessionAsync, readSessionsAsync } from '../../../src/extension/sessions/sessionEntry';
import { SessionsReader } from '../../../src/extension/sessions/sessionsReader';
import { OverviewRunner } from '../../../src/extension/overview/overviewRunner';
import { serializeLedger } from '../../../src/store/ledger-file';
import { syntheticLedger } from '../overview/synthetic-ledger';

const WORKER = resolve(__dirname, '../../../../dist/overviewWorker.js');

describe('sessions reader: the tree parses ledgers in a worker thread', function () {
  this.timeout(120_000);
  let root: string;
  const LONG = 6_000;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'loop-ledger-sessions-reader-'));
    const dir = join(root, '.loop', 'ledgers');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'long.json'), serializeLedger(syntheticLedger(LONG, 'long')));
    for (let i = 0; i < 12; i++) {
      const session = `small-${i}`;
      writeFileSync(join(dir, `${session}.json`), serializeLedger(syntheticLedger(1 + i, session)));
    }
    writeFileSync(join(dir, 'torn.json'), '{"schema_version": 1, "session": "torn", "iter');
    // A note key JSON.parse keeps as an own property: the copy must keep it as one too.
    const odd = syntheticLedger(2, 'odd');
    const text = serializeLedger(odd).replace(
      '"note":"first pass"',
      '"__proto__":{"x":1},"note":"first pass"',
    );
    writeFileSync(join(dir, 'odd.json'), text);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('every session comes back exactly as the inline reader reads it, long ledgers whole', async () => {
    const reader = new SessionsReader(WORKER);
    try {
      const inline = await readSessionsAsync(root);
      const viaWorker = await reader.sessions(root);
      assert.equal(reader.readInWorker, inline.length);
      assert.deepStrictEqual(viaWorker, inline);
      const long = viaWorker.find((t) => t.entry.session === 'long')!.entry;
      assert.equal(long.kind, 'ledger');
      if (long.kind === 'ledger') {
        assert.equal(long.ledger.iterations.length, LONG);
        assert.deepEqual(
          long.ledger.iterations.map((r) => r.n),
          Array.from({ length: LONG }, (_, i) => i + 1),
        );
      }
      const torn = viaWorker.find((t) => t.entry.session === 'torn')!.entry;
      assert.equal(torn.kind, 'broken');
    } finally {
      reader.dispose();
    }
  });

  it('one session re-read (what a watcher event triggers) matches too, and a missing one is undefined', async () => {
    const reader = new SessionsReader(WORKER);
    try {
      assert.deepStrictEqual(await reader.session(root, 'long'), await readSessionAsync(root, 'long'));
      const odd = await reader.session(root, 'odd');
      assert.deepStrictEqual(odd, await readSessionAsync(root, 'odd'));
      assert.equal(odd?.entry.kind, 'ledger');
      if (odd?.entry.kind === 'ledger')
        assert.ok(Object.prototype.hasOwnProperty.call(odd.entry.ledger.iterations[0], '__proto__'));
      assert.equal(await reader.session(root, 'nobody'), undefined);
      assert.equal(await reader.session(root, '../escape'), undefined);
      assert.equal(reader.readInWorker, 3);
    } finally {
      reader.dispose();
    }
  });

  it('a long ledger crosses in parts (each its own message), a short one in one', async () => {
    const reader = new SessionsReader(WORKER);
    try {
      await reader.session(root, 'small-3');
      assert.equal(reader.partsReceived, 0);
      const long = await reader.session(root, 'long');
      assert.equal(long?.entry.kind === 'ledger' && long.entry.ledger.iterations.length, LONG);
      assert.ok(reader.partsReceived >= 4, `the long ledger came in ${reader.partsReceived + 1} messages`);
    } finally {
      reader.dispose();
    }
  });

  it("the overview shares the tree's worker and opens a long ledger from the tree's read", async () => {
    const reader = new SessionsReader(WORKER);
    const runner = new OverviewRunner(reader.channel);
    const file = join(root, '.loop', 'ledgers', 'long.json');
    const before = readFileSync(file, 'utf8');
    const mtime = 1_700_000_000; // whole seconds: set back exactly after the rewrite below
    utimesSync(file, mtime, mtime);
    try {
      const listed = (await reader.sessions(root)).length;
      // Same size, same mtime, another purpose: only a kept read still says the old one.
      writeFileSync(file, before.replace('"purpose": "Make', '"purpose": "Xake'));
      utimesSync(file, mtime, mtime);
      const opened = await runner.overview(root, 'long', 200);
      assert.equal(runner.answeredInWorker, 1);
      assert.equal(opened.kind, 'model');
      if (opened.kind === 'model')
        assert.equal(opened.model.purpose, 'Make the suite pass and raise coverage');
      runner.dispose(); // not the tree's worker: the tree still reads through it
      assert.equal((await reader.session(root, 'small-1'))?.entry.kind, 'ledger');
      assert.equal(reader.readInWorker, listed + 1);
    } finally {
      writeFileSync(file, before);
      reader.dispose();
    }
  });

  it('without a worker, or with one that cannot start, the same entries are read inline', async () => {
    const inline = await readSessionsAsync(root);
    for (const path of [undefined, join(root, 'no-such-worker.js')]) {
      const reader = new SessionsReader(path);
      try {
        assert.deepStrictEqual(await reader.sessions(root), inline);
        assert.equal(reader.readInWorker, 0);
      } finally {
        reader.dispose();
      }
    }
  });
});
