// The first look at a long ledger (overviewGlance.ts, glanceText.ts): from the file's head and
// tail only, it gives exactly what the full parse gives for the newest records, with the header's
// counts and spend of the whole ledger; wherever the tail is cut, it never yields part of a record;
// a file it cannot vouch for gives no glance; and a page opening a ledger whose middle is broken
// ends on the tree's own reason, never on the glance.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { buildOverview } from '../../../src/engine/overview/model';
import { glanceOf } from '../../../src/extension/overview/glanceText';
import { GLANCE_MIN_BYTES, glanceOverview } from '../../../src/extension/overview/overviewGlance';
import { prepareOverview, type PreparedOverview } from '../../../src/extension/overview/overviewPrepare';
import { OverviewRunner } from '../../../src/extension/overview/overviewRunner';
import { readSessionAsync } from '../../../src/extension/sessions/sessionEntry';
import type { Ledger } from '../../../src/engine/types';
import { serializeLedger } from '../../../src/store/ledger-file';
import type { WorkerChannel } from '../../../src/extension/workerChannel';
import { syntheticLedger } from './synthetic-ledger';

const COUNT = 3_000; // ~3 MB: over GLANCE_MIN_BYTES, so the glance is taken
const BUCKETS = 300;

/** A channel whose replies the test hands out: the full read arrives exactly when the test says. */
function heldChannel(): { channel: WorkerChannel<object, { id: number }>; release: (reply: object) => void } {
  let release: (reply: object) => void = () => undefined;
  const held = new Promise<object>((resolve) => (release = resolve));
  const channel = { request: () => held, dispose: () => undefined };
  return { channel: channel as unknown as WorkerChannel<object, { id: number }>, release };
}

describe('overview glance: a long ledger drawn from its head and tail first', function () {
  this.timeout(120_000);
  let root: string;
  let dir: string;
  let full: Ledger;
  let bytes: Buffer;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'loop-ledger-glance-'));
    dir = join(root, '.loop', 'ledgers');
    mkdirSync(dir, { recursive: true });
    full = syntheticLedger(COUNT, 'long');
    writeFileSync(join(dir, 'long.json'), serializeLedger(full));
    bytes = readFileSync(join(dir, 'long.json'));
    assert.ok(bytes.length > GLANCE_MIN_BYTES, 'the fixture is long enough to glance at');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('charts exactly the newest records of the full parse, with the whole ledger’s header counts', async () => {
    const glance = await glanceOverview(root, 'long', BUCKETS);
    assert.ok(glance, 'a glance is taken');
    const whole = prepareOverview((await readSessionAsync(root, 'long'))?.entry, BUCKETS);
    assert.equal(whole.kind, 'model');
    if (whole.kind !== 'model') return;
    const partial = glance.model.partial!;
    assert.ok(partial.shown > 100 && partial.shown < COUNT, `shows the newest ${partial.shown}`);
    assert.deepEqual(partial, {
      shown: partial.shown,
      firstShown: COUNT - partial.shown + 1,
      lastShown: COUNT,
      total: COUNT,
    });
    assert.deepEqual([...glance.numbers], [...whole.numbers.slice(-partial.shown)]);
    // The header reads as the complete model's does (counts and spend from the stored summary).
    for (const key of [
      'session',
      'kind',
      'purpose',
      'owner',
      'status',
      'finalOutcome',
      'epoch',
      'iterations',
      'epochIterations',
      'iterationLimit',
      'lastTimestamp',
      'pendingBrief',
      'spend',
    ] as const)
      assert.deepEqual(glance.model[key], whole.model[key], key);
    // The charts are those of the full parse's newest records.
    const newest = buildOverview(
      { ...full, iterations: full.iterations.slice(-partial.shown) },
      null,
      BUCKETS,
    );
    for (const key of ['dimensions', 'total', 'cost', 'timeline', 'stalls', 'verdicts'] as const)
      assert.deepEqual(glance.model[key], JSON.parse(JSON.stringify(newest[key])), key);
  });

  it('wherever the head and tail are cut, it yields only whole records, the full parse’s newest', () => {
    const size = bytes.length;
    let glanced = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 64, max: 400_000 }),
        fc.integer({ min: 2_000, max: 200_000 }),
        (tailLength, headLength) => {
          const glance = glanceOf(
            bytes.subarray(0, headLength),
            bytes.subarray(size - tailLength),
            size,
            'long',
          );
          if (glance === null) return; // too little of the tail, or the head stops before the records
          glanced += 1;
          const shown = glance.ledger.iterations;
          assert.ok(shown.length >= 1);
          assert.deepEqual(shown, JSON.parse(JSON.stringify(full.iterations.slice(-shown.length))));
          assert.equal(glance.summary?.count, COUNT);
        },
      ),
      { numRuns: 60 },
    );
    assert.ok(glanced > 30, `most cuts glance (${glanced} of 60)`);
  });

  it('gives no glance for what the full read must judge', () => {
    const size = bytes.length;
    const head = bytes.subarray(0, 100_000);
    const tail = bytes.subarray(size - 300_000);
    assert.ok(glanceOf(head, tail, size, 'long'), 'the untouched pieces glance');
    const edit = (piece: Buffer, from: string, to: string): Buffer =>
      Buffer.from(piece.toString('latin1').replace(from, to), 'latin1');
    // Another session's ledger under this name, a newer layout, a torn end, stray bytes, a BOM.
    assert.equal(glanceOf(head, tail, size, 'other'), null);
    assert.equal(
      glanceOf(head, edit(tail, '"schema_version": 1', '"schema_version": 9'), size, 'long'),
      null,
    );
    assert.equal(glanceOf(head, tail.subarray(0, tail.length - 40), size, 'long'), null);
    const stray = Buffer.from(tail);
    stray[tail.length - 200] = 0xff;
    assert.equal(glanceOf(head, stray, size, 'long'), null);
    assert.equal(
      glanceOf(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), head]), tail, size + 3, 'long'),
      null,
    );
    // A tail that reaches back to the records' start: the file is short, read it whole.
    assert.equal(glanceOf(head, bytes, size, 'long'), null);
    // Another writer's layout (two-space JSON, records over many lines): whole records or nothing.
    const indented = Buffer.from(JSON.stringify(full, null, 2));
    const other = glanceOf(
      indented.subarray(0, 100_000),
      indented.subarray(indented.length - 300_000),
      indented.length,
      'long',
    );
    if (other !== null)
      assert.deepEqual(other.ledger.iterations, full.iterations.slice(-other.ledger.iterations.length));
  });

  it('reads no glance through a symbolic link, nor from a short ledger', async () => {
    symlinkSync(join(dir, 'long.json'), join(dir, 'linked.json'));
    writeFileSync(join(dir, 'short.json'), serializeLedger(syntheticLedger(50, 'short')));
    assert.equal(await glanceOverview(root, 'linked', BUCKETS), null);
    assert.equal(await glanceOverview(root, 'short', BUCKETS), null);
    assert.equal(await glanceOverview(root, 'missing', BUCKETS), null);
  });

  it('a page shows the glance while the full read is out, then the complete model', async () => {
    const { channel, release } = heldChannel();
    const runner = new OverviewRunner(channel);
    const shown: PreparedOverview[] = [];
    let glanced: () => void = () => undefined;
    const glancedOnce = new Promise<void>((resolve) => (glanced = resolve));
    const opened = runner.open(root, 'long', BUCKETS, undefined, (glance) => {
      shown.push(glance);
      glanced();
    });
    await glancedOnce;
    assert.equal(shown.length, 1);
    assert.ok(shown[0]!.kind === 'model' && shown[0]!.model.partial);
    const whole = prepareOverview((await readSessionAsync(root, 'long'))?.entry, BUCKETS);
    release({ id: 1, prepared: whole });
    const result = await opened;
    assert.equal(result.kind, 'model');
    assert.equal(result.kind === 'model' && result.model.partial, undefined);
    assert.equal(runner.glancesShown, 1);
  });

  it('shows no glance once the full answer is in', async () => {
    const { channel, release } = heldChannel();
    const runner = new OverviewRunner(channel);
    const whole = prepareOverview((await readSessionAsync(root, 'long'))?.entry, BUCKETS);
    release({ id: 1, prepared: whole });
    let glances = 0;
    const result = await runner.open(root, 'long', BUCKETS, undefined, () => (glances += 1));
    assert.equal(result.kind, 'model');
    // Well past the glance's own read and its wait: it must still not be shown.
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal(glances, 0);
    assert.equal(runner.glancesShown, 0);
  });

  it('a ledger broken in the middle may glance, but the open ends on the tree’s reason', async () => {
    const broken = Buffer.from(bytes);
    const middle = broken.indexOf('"n":1500,');
    assert.ok(middle > 0);
    broken.write('"n":1500 ', middle, 'latin1'); // a missing comma: not JSON any more
    writeFileSync(
      join(dir, 'broken.json'),
      Buffer.concat([broken]).toString('latin1').replace('"session": "long"', '"session": "broken"'),
    );
    const runner = new OverviewRunner(undefined);
    const result = await runner.open(root, 'broken', BUCKETS, undefined, () => undefined);
    const tree = (await readSessionAsync(root, 'broken'))?.entry;
    assert.equal(tree?.kind, 'broken');
    assert.deepEqual(result, {
      kind: 'problem',
      session: 'broken',
      reason: tree?.kind === 'broken' && tree.problem,
    });
  });
});
