// A large ledger's overview is read and prepared in a worker thread, so the extension host's event
// loop keeps turning while the ledger is parsed; the worker gives exactly the inline answer, the
// gate's record numbers and a record in words included; a small ledger the tree already holds is
// prepared inline; an unreadable ledger comes back with the tree's own reason; without a worker
// everything still answers.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readSessionAsync } from '../../../src/extension/sessions/sessionEntry';
import { iterationOf, prepareOverview } from '../../../src/extension/overview/overviewPrepare';
import { INLINE_RECORDS, OverviewRunner } from '../../../src/extension/overview/overviewRunner';
import { serializeLedger } from '../../../src/store/ledger-file';
import { syntheticLedger } from './synthetic-ledger';

const WORKER = resolve(__dirname, '../../../../dist/overviewWorker.js');

/** Runs `work` and counts the event-loop turns (setImmediate) that happened while it ran. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const spin = () => {
    if (!running) return;
    turns += 1;
    setImmediate(spin);
  };
  setImmediate(spin);
  const result = await work();
  running = false;
  return { result, turns };
}

describe('overview runner: large ledgers are prepared off the host thread', function () {
  this.timeout(120_000);
  let root: string;
  const BIG = 'big';
  const count = INLINE_RECORDS * 3;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'loop-ledger-overview-runner-'));
    const dir = join(root, '.loop', 'ledgers');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${BIG}.json`), serializeLedger(syntheticLedger(count, BIG)));
    writeFileSync(join(dir, 'small.json'), serializeLedger(syntheticLedger(5, 'small')));
    writeFileSync(join(dir, 'torn.json'), '{"schema_version": 1, "session": "torn", "iter');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('the worker answers a large ledger with exactly the inline model, and the loop keeps turning', async () => {
    const runner = new OverviewRunner(WORKER);
    try {
      const { result, turns } = await turnsDuring(() => runner.overview(root, BIG, 300));
      assert.equal(runner.answeredInWorker, 1);
      const inline = prepareOverview((await readSessionAsync(root, BIG))?.entry, 300);
      assert.deepEqual(result, inline);
      assert.equal(result.kind, 'model');
      if (result.kind === 'model') {
        assert.equal(result.numbers.length, count);
        assert.equal(result.numbers[count - 1], count);
        assert.equal(result.model.iterations, count);
      }
      assert.ok(turns > 0, 'the event loop turned while the worker read the ledger');
    } finally {
      runner.dispose();
    }
  });

  it('the worker answers a record in words from the ledger it keeps, and null for a record it has not', async () => {
    const runner = new OverviewRunner(WORKER);
    try {
      const entry = (await readSessionAsync(root, BIG))?.entry;
      assert.deepEqual(await runner.iteration(root, BIG, 10), iterationOf(entry, 10));
      assert.equal((await runner.iteration(root, BIG, 10))?.brief, (10).toString(16).padStart(16, '0'));
      assert.equal(await runner.iteration(root, BIG, count + 1), null);
      assert.equal(runner.answeredInWorker, 3);
    } finally {
      runner.dispose();
    }
  });

  it('a redraw of an unchanged file answers the same model again; after a write, the new one', async () => {
    const runner = new OverviewRunner(WORKER);
    const file = join(root, '.loop', 'ledgers', 'redrawn.json');
    try {
      writeFileSync(file, serializeLedger(syntheticLedger(INLINE_RECORDS + 10, 'redrawn')));
      const first = await runner.overview(root, 'redrawn', 200);
      const again = await runner.overview(root, 'redrawn', 200);
      assert.deepEqual(again, first);
      assert.equal(again.kind === 'model' && again.numbers.length, INLINE_RECORDS + 10);
      writeFileSync(file, serializeLedger(syntheticLedger(INLINE_RECORDS + 11, 'redrawn')));
      const after = await runner.overview(root, 'redrawn', 200);
      assert.equal(after.kind === 'model' && after.model.iterations, INLINE_RECORDS + 11);
    } finally {
      runner.dispose();
      rmSync(file, { force: true });
    }
  });

  it('an unreadable ledger comes back with the reason the Sessions tree gives', async () => {
    const runner = new OverviewRunner(WORKER);
    try {
      const tree = (await readSessionAsync(root, 'torn'))?.entry;
      assert.equal(tree?.kind, 'broken');
      const result = await runner.overview(root, 'torn', 300);
      assert.deepEqual(result, {
        kind: 'problem',
        session: 'torn',
        reason: tree.kind === 'broken' ? tree.problem : '',
      });
      assert.deepEqual(await runner.overview(root, 'gone', 300), { kind: 'absent' });
    } finally {
      runner.dispose();
    }
  });

  it('a small ledger the tree holds is prepared inline; without a worker a large one still answers', async () => {
    const withWorker = new OverviewRunner(WORKER);
    const without = new OverviewRunner(undefined);
    try {
      const small = (await readSessionAsync(root, 'small'))?.entry;
      const result = await withWorker.overview(root, 'small', 300, small);
      assert.equal(withWorker.answeredInWorker, 0);
      assert.deepEqual(result, prepareOverview(small, 300));
      const big = await without.overview(root, BIG, 300);
      assert.equal(big.kind === 'model' && big.model.iterations, count);
      assert.equal(without.answeredInWorker, 0);
    } finally {
      withWorker.dispose();
      without.dispose();
    }
  });
});
