// The overview's quick read of a long sealed ledger (overviewSealed.ts, store/sealed-fields.ts,
// store/record-fields.ts): whenever it answers, its model is exactly the full read's
// (prepareOverview over the tree's entry), for random records of every loop kind with escapes,
// non-ASCII text, exotic numbers and keys in any order; for records mutated at random with the
// seal recomputed over the mutation (so only the scanner stands between a broken record and the
// charts) it either gives the full read's model or gives way to the full read, which shows the
// tree's reason; a click reads the same record the full parse holds, and nothing once the file
// changed.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { prepareOverview } from '../../../src/extension/overview/overviewPrepare';
import {
  prepareSealed,
  recordAgain,
  sealedOverviewRead,
} from '../../../src/extension/overview/overviewSealed';
import { readSessionNow } from '../../../src/extension/sessions/workerRead';
import type { IterationRecord, Ledger } from '../../../src/engine/types';
import { serializeLedger } from '../../../src/store/ledger-file';
import { RECORDS_OPEN, recordsEnd } from '../../../src/store/ledger-sealed';
import { recordsDigest } from '../../../src/store/records-digest';
import { syntheticLedger } from './synthetic-ledger';

const COUNT = 320; // ~300 KB of records: over the seal's minimum, so the file is sealed
const BUCKETS = 60; // fewer than the records: the series are downsampled

const texts = fc.oneof(
  fc.constantFrom('continue', 'revise', 'complete', 'PASS', 'REVISE', 'repeated-error', ''),
  fc.string({ maxLength: 12 }),
  fc.constantFrom('é', 'quote " in', 'back \\ slash', 'line\nbreak', 'tab\t', '\u2028', '😀', '\u0001'),
);
const numbers = fc.oneof(
  fc.integer({ min: -1e6, max: 1e6 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1e-7, 1.5e300, 2 ** 53 + 2, 0.1),
);
const values = fc.oneof(texts, numbers, fc.boolean(), fc.constant(null));

/** A record's changes: some fields of the synthetic record given other values. */
const recordEdits = fc.record(
  {
    outcome: texts,
    stall: fc.option(texts),
    critic_verdict: fc.option(texts),
    critic_brief: fc.option(texts),
    cost_usd: values,
    tokens_in: values,
    measured: fc.option(numbers),
    measurement: values,
    weighted_total: fc.option(numbers),
    verdict: fc.option(texts),
    extra: fc.dictionary(fc.string({ maxLength: 6 }), values, { maxKeys: 3 }),
    repeat: fc.option(fc.dictionary(fc.constantFrom('classification', 'change_metric', 'x'), values)),
    actions: fc.array(fc.constantFrom('wo-01/a1/review', 'wo-01/a2/implement', 'r1/01/agent', 'x'), {
      maxLength: 2,
    }),
    reverse: fc.boolean(),
  },
  { requiredKeys: [] },
);

type Edit = Partial<{
  outcome: string;
  stall: string | null;
  critic_verdict: string | null;
  critic_brief: string | null;
  cost_usd: unknown;
  tokens_in: unknown;
  measured: number | null;
  measurement: unknown;
  weighted_total: number | null;
  verdict: string | null;
  extra: Record<string, unknown>;
  repeat: Record<string, unknown> | null;
  actions: string[];
  reverse: boolean;
}>;

function edited(record: IterationRecord, edit: Edit): IterationRecord {
  const r = { ...record } as Record<string, unknown>;
  for (const key of [
    'outcome',
    'stall',
    'critic_verdict',
    'critic_brief',
    'cost_usd',
    'tokens_in',
    'repeat',
    'actions',
  ])
    if (key in edit) r[key] = (edit as Record<string, unknown>)[key];
  if (edit.extra) Object.assign(r, edit.extra);
  const evaluation = r.evaluation as {
    dimensions: { measured: unknown }[];
    weighted_total: unknown;
    verdict: unknown;
  };
  if ('measured' in edit)
    evaluation.dimensions = [
      { ...evaluation.dimensions[0]!, measured: edit.measured },
      evaluation.dimensions[1]!,
    ];
  if ('weighted_total' in edit) evaluation.weighted_total = edit.weighted_total;
  if ('verdict' in edit) evaluation.verdict = edit.verdict;
  if ('measurement' in edit) r.measurements = { ...(r.measurements as object), coverage: edit.measurement };
  // Keys in another order: JSON.stringify writes them as the object holds them.
  return (edit.reverse ? Object.fromEntries(Object.entries(r).reverse()) : r) as unknown as IterationRecord;
}

const KINDS = ['work', 'repeat', 'run', 'work-order'] as const;

function ledgerOf(kind: (typeof KINDS)[number], edits: Edit[], session: string): Ledger {
  const ledger = syntheticLedger(COUNT, session);
  ledger.iterations = ledger.iterations.map((record, i) => {
    // The newest record as it was: the stored summary keeps its outcome, verdict and measurements,
    // which the sealed reader checks (a summary it refuses only sends every read to the full path).
    if (i === COUNT - 1) return record;
    const base = { ...record, evaluation: { ...record.evaluation! } };
    return edited(base as IterationRecord, edits[i % edits.length] ?? {});
  });
  if (kind === 'repeat') (ledger as unknown as Record<string, unknown>).repeat = { metric: 'x' };
  if (kind === 'run') ledger.contract.owner = 'loop-ledger run';
  if (kind === 'work-order') ledger.contract.owner = 'loop-ledger wo run';
  return ledger;
}

/** The file with its seal recomputed over the records as they now are. */
function resealed(bytes: Buffer): Buffer {
  const start = bytes.indexOf(RECORDS_OPEN) + RECORDS_OPEN.length;
  const end = recordsEnd(bytes, start);
  if (end < 0) return bytes;
  const text = bytes.toString('latin1');
  const summary = /\n {2}"records_summary": (.*?),?\n/.exec(text)?.[1];
  if (summary === undefined) return bytes;
  const digest = recordsDigest([bytes.subarray(start, end)], JSON.stringify(JSON.parse(summary)));
  return Buffer.from(
    text.replace(/"records_sha256": "[0-9a-f]{64}"/, `"records_sha256": "${digest}"`),
    'latin1',
  );
}

describe("overview quick read: a long sealed ledger drawn from its charts' fields", function () {
  this.timeout(120_000);
  let root: string;
  let dir: string;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'loop-ledger-sealed-'));
    dir = join(root, '.loop', 'ledgers');
    mkdirSync(dir, { recursive: true });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  /** The quick read's answer and the full read's, for the file as it is now. */
  async function both(session: string) {
    const quick = sealedOverviewRead(root, session);
    const full = (await readSessionNow(root, session))?.timed.entry;
    return { quick, full, fullModel: prepareOverview(full, BUCKETS) };
  }

  it('reads every kind of ledger this store wrote quickly, and the same record on a click', async () => {
    for (const kind of KINDS) {
      const session = `plain-${kind}`;
      writeFileSync(join(dir, `${session}.json`), serializeLedger(ledgerOf(kind, [{}], session)));
      const { quick, full, fullModel } = await both(session);
      assert.ok(quick, `a sealed ${kind} ledger is read quickly`);
      assert.equal(fullModel.kind, 'model');
      assert.deepEqual(prepareSealed(quick, BUCKETS), fullModel);
      assert.ok(full?.kind === 'ledger');
      for (const n of [1, 2, COUNT - 250, COUNT - 1, COUNT])
        assert.deepEqual(recordAgain(quick, n), full.ledger.iterations[n - 1]);
      assert.equal(recordAgain(quick, COUNT + 1), null);
    }
  });

  it("gives exactly the full read's model for random records of every kind, or gives way to it", async () => {
    let case_ = 0;
    const seen = { quick: 0, gaveWay: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...KINDS),
        fc.array(recordEdits, { minLength: 1, maxLength: 6 }),
        async (kind, edits) => {
          const session = `q${case_++}`;
          writeFileSync(join(dir, `${session}.json`), serializeLedger(ledgerOf(kind, edits, session)));
          const { quick, full, fullModel } = await both(session);
          // A summary the sealed reader does not take (an evaluation verdict of "", say) gives way.
          if (quick === null) {
            seen.gaveWay += 1;
            return;
          }
          seen.quick += 1;
          assert.deepEqual(prepareSealed(quick, BUCKETS), fullModel);
          assert.ok(full?.kind === 'ledger');
          for (const n of [3, COUNT - 201, COUNT])
            assert.deepEqual(recordAgain(quick, n), full.ledger.iterations[n - 1]);
        },
      ),
      { numRuns: 16, seed: 26 },
    );
    assert.ok(seen.quick >= 8, JSON.stringify(seen));
  });

  it("on a record broken at random under a recomputed seal, gives the full read's answer or gives way to it", async () => {
    const session = 'broken';
    const path = join(dir, `${session}.json`);
    writeFileSync(path, serializeLedger(ledgerOf('work', [{}], session)));
    const good = readFileSync(path);
    const start = good.indexOf(RECORDS_OPEN) + RECORDS_OPEN.length;
    const end = recordsEnd(good, start);
    const seen = { quick: 0, gaveWay: 0, problem: 0 };
    const bytesIn = fc.constantFrom(
      ...'"\\{}[],: \n0e-.+atfnu'.split('').map((c) => c.charCodeAt(0)),
      0xff,
      0xc3,
      0x01,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: start, max: end - 1 }),
        bytesIn,
        fc.boolean(),
        async (at, byte, insert) => {
          const broken = insert
            ? Buffer.concat([good.subarray(0, at), Buffer.from([byte]), good.subarray(at)])
            : Buffer.from(good).fill(byte, at, at + 1);
          writeFileSync(path, resealed(broken));
          const { quick, fullModel } = await both(session);
          if (fullModel.kind === 'problem') seen.problem += 1;
          if (quick === null) {
            seen.gaveWay += 1;
            return;
          }
          seen.quick += 1;
          assert.deepEqual(prepareSealed(quick, BUCKETS), fullModel);
        },
      ),
      { numRuns: 60, seed: 2626 },
    );
    // Both ways were taken, and broken records did reach the full read's reason.
    assert.ok(seen.quick > 0 && seen.gaveWay > 0 && seen.problem > 0, JSON.stringify(seen));
  });

  it('gives way when the seal does not match, and a click finds the file changed', async () => {
    const session = 'changed';
    const path = join(dir, `${session}.json`);
    writeFileSync(path, serializeLedger(ledgerOf('work', [{}], session)));
    const quick = sealedOverviewRead(root, session);
    assert.ok(quick);
    const text = readFileSync(path, 'latin1');
    // A record edited without its seal: the quick read does not vouch for it.
    writeFileSync(path, text.replace('"step-7"', '"step-8"'), 'latin1');
    assert.equal(sealedOverviewRead(root, session), null);
    assert.equal(recordAgain(quick, 7), 'changed');
  });
});
