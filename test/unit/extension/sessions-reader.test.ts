// The Sessions tree reads its ledgers in a worker thread: the entries it gets are exactly the
// inline reader's (an unreadable ledger keeps its reason; a key JSON.parse kept as an own property
// stays one), except that a long ledger's records stay in the worker: the host gets its newest
// records and each epoch's count, and an epoch's records (the newest, capped) when it asks; and
// without a worker (or with one that cannot start) the tree still fills.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { recordEpoch } from '../../../src/engine/ledger-view';
import type { IterationRecord } from '../../../src/engine/types';
import {
  readSessionAsync,
  readSessionsAsync,
  type TimedEntry,
} from '../../../src/extension/sessions/sessionEntry';
import { SessionsReader } from '../../../src/extension/sessions/sessionsReader';
import { currentRows } from '../../../src/extension/overview/dashboardRows';
import { OverviewRunner } from '../../../src/extension/overview/overviewRunner';
import { serializeLedger } from '../../../src/store/ledger-file';
import { syntheticLedger } from '../overview/synthetic-ledger';

const WORKER = resolve(__dirname, '../../../../dist/overviewWorker.js');

/**
 * A long ledger's entry from the worker against the inline read: the newest records only, the
 * counts of all of them, everything else the same.
 */
function assertHeld(viaWorker: TimedEntry | undefined, inline: TimedEntry | undefined, total: number): void {
  assert.ok(viaWorker && inline);
  const held = viaWorker.entry;
  const whole = inline.entry;
  assert.ok(held.kind === 'ledger' && whole.kind === 'ledger');
  assert.ok(held.held, 'a long ledger comes with its counts');
  assert.equal(held.held.total, total);
  const kept = held.ledger.iterations.length;
  assert.ok(kept > 0 && kept < total / 10, `${kept} of ${total} records crossed to the host`);
  assert.deepStrictEqual(held.ledger.iterations, whole.ledger.iterations.slice(total - kept));
  const byEpoch: Record<number, number> = {};
  for (const r of whole.ledger.iterations) byEpoch[recordEpoch(r)] = (byEpoch[recordEpoch(r)] ?? 0) + 1;
  assert.deepStrictEqual(held.held.byEpoch, byEpoch);
  assert.deepStrictEqual(held.status, whole.status);
  assert.deepStrictEqual({ ...held.ledger, iterations: [] }, { ...whole.ledger, iterations: [] });
  assert.deepStrictEqual({ ...held, ledger: null, held: null }, { ...whole, ledger: null, held: null });
  assert.equal(viaWorker.mtimeMs, inline.mtimeMs);
}

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

  it('every session comes back exactly as the inline reader reads it, a long ledger with its newest records', async () => {
    const reader = new SessionsReader(WORKER);
    try {
      const inline = await readSessionsAsync(root);
      const viaWorker = await reader.sessions(root);
      assert.equal(reader.readInWorker, inline.length);
      assert.equal(reader.heldInWorker, 1);
      const at = inline.findIndex((t) => t.entry.session === 'long');
      assertHeld(viaWorker[at], inline[at], LONG);
      assert.deepStrictEqual(
        viaWorker.filter((_, i) => i !== at),
        inline.filter((_, i) => i !== at),
      );
      const torn = viaWorker.find((t) => t.entry.session === 'torn')!.entry;
      assert.equal(torn.kind, 'broken');
    } finally {
      reader.dispose();
    }
  });

  it('one session re-read (what a watcher event triggers) matches too, and a missing one is undefined', async () => {
    const reader = new SessionsReader(WORKER);
    try {
      assertHeld(await reader.session(root, 'long'), await readSessionAsync(root, 'long'), LONG);
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

  it("the dashboard row of a long ledger from the worker is the full read's, its sparkline over every record", async () => {
    const reader = new SessionsReader(WORKER);
    try {
      const viaWorker = (await reader.session(root, 'long'))!;
      const inline = (await readSessionAsync(root, 'long'))!;
      assert.ok(viaWorker.entry.kind === 'ledger' && viaWorker.entry.held, 'held in the worker');
      const node = (timed: TimedEntry) => ({ root: { name: 'ws', path: root }, entry: timed.entry });
      const [held] = currentRows([node(viaWorker)]);
      const [whole] = currentRows([node(inline)]);
      assert.deepStrictEqual(held, whole);
      // The newest records the host holds would draw a different line: the first ones are in it.
      const newestOnly = { ...viaWorker.entry, held: undefined };
      assert.notDeepEqual(
        currentRows([{ ...node(viaWorker), entry: newestOnly }])[0]!.sparkline,
        whole!.sparkline,
      );
    } finally {
      reader.dispose();
    }
  });

  it("a long ledger's epoch records come from the worker on request, the newest, capped", async () => {
    const reader = new SessionsReader(WORKER);
    try {
      const inline = (await readSessionAsync(root, 'long'))!.entry;
      assert.ok(inline.kind === 'ledger');
      const epochs = [...new Set(inline.ledger.iterations.map(recordEpoch))];
      assert.ok(epochs.length >= 2, 'the synthetic ledger changes epoch');
      for (const epoch of epochs) {
        const all: IterationRecord[] = inline.ledger.iterations.filter((r) => recordEpoch(r) === epoch);
        for (const limit of [1, 250, all.length + 5]) {
          const got = await reader.epochRecords(root, 'long', epoch, limit);
          assert.equal(got.total, all.length);
          assert.deepStrictEqual(got.records, all.slice(Math.max(0, all.length - limit)));
        }
      }
      assert.deepStrictEqual(await reader.epochRecords(root, 'nobody', 1, 10), { records: [], total: 0 });
      // Without a worker the same answer, read inline.
      const inlineReader = new SessionsReader(undefined);
      const got = await inlineReader.epochRecords(root, 'long', epochs[0]!, 7);
      assert.deepStrictEqual(got, await reader.epochRecords(root, 'long', epochs[0]!, 7));
      inlineReader.dispose();
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
