// The Sessions tree pages an epoch of a long ledger: the newest page first, then one older page per
// "Show older iterations…", each fetched from the real ledger worker by position, until the whole
// epoch is shown in order; a re-read after a write keeps the older rows when the fresh newest page
// reaches them, and starts over from the newest page when more records arrived than a page holds.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { recordEpoch } from '../../../src/engine/ledger-view';
import type { Ledger } from '../../../src/engine/types';
import { EpochPages } from '../../../src/extension/sessions/epochPages';
import { SessionsReader } from '../../../src/extension/sessions/sessionsReader';
import { serializeLedger } from '../../../src/store/ledger-file';
import { syntheticLedger, syntheticRecord } from '../overview/synthetic-ledger';

const WORKER = resolve(__dirname, '../../../../dist/overviewWorker.js');
const COUNT = 3_000; // epoch 1: records 1–1,000; epoch 2: 1,001–3,000
const ROWS = 700;

describe('epoch pages: the tree shows a long epoch a page at a time, from the worker', function () {
  this.timeout(60_000);
  let root: string;
  let path: string;
  let reader: SessionsReader;

  const write = (ledger: Ledger): void => writeFileSync(path, serializeLedger(ledger));
  const entry = async () => (await reader.session(root, 'long'))!.entry;
  const ns = (records: readonly { n: number }[]) => records.map((r) => r.n);
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const grown = (extra: number): Ledger => {
    const ledger = syntheticLedger(COUNT, 'long');
    for (let n = COUNT + 1; n <= COUNT + extra; n++) ledger.iterations.push(syntheticRecord(n, 2, false));
    return ledger;
  };

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'loop-ledger-epoch-pages-'));
    mkdirSync(join(root, '.loop', 'ledgers'), { recursive: true });
    path = join(root, '.loop', 'ledgers', 'long.json');
    reader = new SessionsReader(WORKER);
  });
  after(() => {
    reader.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  it('shows the newest page, then older pages until the whole epoch, every record once, in order', async () => {
    write(syntheticLedger(COUNT, 'long'));
    const at = { root, entry: await entry(), epoch: 2 };
    assert.ok(
      at.entry.kind === 'ledger' && at.entry.held,
      'the ledger is long: its records stay in the worker',
    );
    const pages = new EpochPages(reader, () => ROWS);
    const first = await pages.shown('e2', at);
    assert.deepEqual(ns(first.records), range(COUNT - ROWS + 1, COUNT));
    assert.equal(first.start, 2_000 - ROWS);
    // Expanding again without a write fetches nothing new: the same rows.
    assert.equal(await pages.shown('e2', at), first);
    const added: number[] = [];
    for (let step = 0; step < 5; step++) added.push(await pages.older('e2', at));
    assert.deepEqual(added, [ROWS, 2_000 - 2 * ROWS, 0, 0, 0], 'a page at a time, then none');
    const all = await pages.shown('e2', at);
    assert.equal(all.start, 0);
    assert.deepEqual(ns(all.records), range(1_001, COUNT));
    // The other epoch pages on its own key, and only its own records.
    const one = { ...at, epoch: 1 };
    assert.deepEqual(ns((await pages.shown('e1', one)).records), range(1_000 - ROWS + 1, 1_000));
    assert.equal(await pages.older('e1', one), 1_000 - ROWS);
    const e1 = await pages.shown('e1', one);
    assert.ok(e1.records.every((r) => recordEpoch(r) === 1));
    assert.deepEqual(ns(e1.records), range(1, 1_000));
    // A key that was never expanded has nothing older to show.
    assert.equal(await pages.older('never', at), 0);
  });

  it('after a write keeps the older rows below a fresh newest page, or starts over after a long gap', async () => {
    write(syntheticLedger(COUNT, 'long'));
    const pages = new EpochPages(reader, () => ROWS);
    const before = { root, entry: await entry(), epoch: 2 };
    await pages.shown('e2', before);
    assert.equal(await pages.older('e2', before), ROWS);
    // 50 more records: the fresh newest page overlaps the rows shown, which stay.
    write(grown(50));
    const after = { ...before, entry: await entry() };
    const joined = await pages.shown('e2', after);
    assert.equal(joined.entry, after.entry);
    assert.equal(joined.start, 2_000 - 2 * ROWS);
    assert.deepEqual(ns(joined.records), range(1_001 + 2_000 - 2 * ROWS, COUNT + 50));
    assert.equal(await pages.older('e2', after), 2_000 - 2 * ROWS);
    assert.deepEqual(ns((await pages.shown('e2', after)).records), range(1_001, COUNT + 50));
    // More new records than a page holds: a gap would open, so only the newest page is shown.
    write(grown(50 + ROWS + 1));
    const far = { ...before, entry: await entry() };
    const fresh = await pages.shown('e2', far);
    assert.deepEqual(ns(fresh.records), range(COUNT + 50 + 2, COUNT + 50 + ROWS + 1));
    // Forgetting a session's keys drops its rows: the next expand fetches again.
    pages.forget('e');
    const again = await pages.shown('e2', far);
    assert.notEqual(again, fresh);
    assert.deepEqual(ns(again.records), ns(fresh.records));
  });

  it('reads inline the same pages when there is no worker', async () => {
    write(syntheticLedger(COUNT, 'long'));
    const inline = new SessionsReader(undefined);
    try {
      const at = { root, entry: await entry(), epoch: 2 };
      for (const end of [undefined, 1_300, 5, 0]) {
        assert.deepStrictEqual(
          await inline.epochRecords(root, 'long', 2, ROWS, end),
          await reader.epochRecords(root, 'long', 2, ROWS, end),
        );
      }
      const viaInline = new EpochPages(inline, () => ROWS);
      await viaInline.shown('e2', at);
      while ((await viaInline.older('e2', at)) > 0);
      assert.deepEqual(ns((await viaInline.shown('e2', at)).records), range(1_001, COUNT));
    } finally {
      inline.dispose();
    }
  });
});
