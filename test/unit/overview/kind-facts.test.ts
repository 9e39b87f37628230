// The overview of a run and of a work order with what their files beside the ledger hold: a run's
// phases with durations and its receipt's verdict (a real run folder made by `loop-ledger run` as
// a child process, read by the host's reader), a work order's attempts n / cap and verdicts; and
// a missing or malformed folder or file, which leaves the ledger's rows with a note.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WoLedger } from '../../../src/app/workorders/ledger';
import { withKindFacts, type RunFolderFacts } from '../../../src/engine/overview/kind-facts';
import { buildOverview, type OverviewModel } from '../../../src/engine/overview/model';
import type { Ledger } from '../../../src/engine/types';
import { readKindFacts, readRunFolder } from '../../../src/extension/overview/kindFactsRead';
import { ledgerPath, readLedgerFile } from '../../../src/store';
import { tempRoot } from '../helpers/cli';
import { runDirOf, runSample, sampleRepo } from '../run/helpers';
import { makeTask } from '../wo/fixture';
import { readJson, woRun } from '../wo/run-helpers';
import { syntheticLedger } from './synthetic-ledger';

function ledgerOf(root: string, session: string): Ledger {
  const read = readLedgerFile(ledgerPath(root, session));
  assert.equal(read.kind, 'ok');
  return (read as { ledger: Ledger }).ledger;
}

/** A run ledger as `loop-ledger run` writes it: owner, and actions `<run>/<NN>/<step>` per attempt. */
function runLedger(runId: string, attempts: number): Ledger {
  const ledger = syntheticLedger(attempts);
  ledger.contract.owner = 'loop-ledger run';
  ledger.iterations.forEach((r, i) => {
    const nn = String(i + 1).padStart(2, '0');
    r.actions = [`${runId}/${nn}/coder`, `${runId}/${nn}/checks`, `${runId}/${nn}/code-reviewer`];
    r.critic_verdict = i + 1 === attempts ? 'PASS' : 'REVISE';
  });
  return ledger;
}

const noWorkOrders = async () => ({ taskPaths: [], cap: null });

describe('overview: a run’s phases and receipt, a work order’s attempts and cap', function () {
  this.timeout(120_000);
  const made: string[] = [];
  after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  describe('a run folder made by `loop-ledger run`', () => {
    let repo: string;
    let runDir: string;
    before(() => {
      repo = sampleRepo();
      made.push(repo);
      const r = runSample(repo, 'repair', ['--session', 'run-1']);
      assert.equal(r.code, 0, r.stderr);
      runDir = runDirOf(repo, r);
    });

    it('shows each attempt’s phases with durations and the receipt’s verdict', async () => {
      const model = buildOverview(ledgerOf(repo, 'run-1'), null, 100);
      assert.equal(model.kind, 'run');
      assert.deepEqual(model.kindColumns, ['attempt', 'phases', 'verdict', 'outcome']);
      // The ledger alone: attempts and verdicts, no phases yet.
      assert.deepEqual(
        model.kindRows.map((r) => r.cells),
        [
          ['1', '—', 'REVISE', 'continue'],
          ['2', '—', 'PASS', 'complete'],
        ],
      );
      const shown = withKindFacts(model, await readKindFacts(repo, model, noWorkOrders));
      assert.deepEqual(shown.kindNotes, []);
      const runId = runDir.slice(runDir.lastIndexOf('/') + 1);
      assert.deepEqual(shown.receipts, [
        { runId, verdict: 'PASS', stopReason: 'CODE_REVIEWER_PASS', attemptsUsed: 2, maxAttempts: 3 },
      ]);
      const [first, second] = shown.kindRows;
      assert.deepEqual(
        first?.phases?.map((p) => p.phase),
        ['explorer', 'coder', 'checks', 'code-reviewer'],
      );
      assert.deepEqual(
        second?.phases?.map((p) => p.phase),
        ['coder', 'checks', 'code-reviewer'],
      );
      for (const p of [...first!.phases!, ...second!.phases!]) {
        assert.ok(p.ms !== null && p.ms >= 0 && p.ms < 60_000, `${p.phase}: ${p.ms}`);
      }
      assert.match(
        second!.cells[1]!,
        /^coder \d+(\.\d)? m?s · checks \d+(\.\d)? m?s · code-reviewer \d+(\.\d)? m?s$/,
      );
      assert.deepEqual(second!.cells.slice(2), ['PASS', 'complete'], 'the ledger’s columns stay');
    });

    it('a duration is the span between the files a phase writes as it starts and as it ends', async () => {
      const attempt = join(runDir, 'attempts', '02');
      const at = (file: string, seconds: number) =>
        utimesSync(join(attempt, file), 1_800_000_000 + seconds, 1_800_000_000 + seconds);
      at('coder-prompt.md', 0);
      at('coder-stderr.txt', 90);
      at('changed-files.txt', 91);
      at('checks.json', 92.5);
      // Out of order (a copied folder): no duration rather than a negative one.
      at('code-reviewer-prompt.md', 100);
      at('code-reviewer-stderr.txt', 99);
      const model = buildOverview(ledgerOf(repo, 'run-1'), null, 100);
      const shown = withKindFacts(model, await readKindFacts(repo, model, noWorkOrders));
      assert.deepEqual(shown.kindRows[1]?.phases, [
        { phase: 'coder', ms: 90_000 },
        { phase: 'checks', ms: 1_500 },
        { phase: 'code-reviewer', ms: null },
      ]);
      assert.equal(shown.kindRows[1]?.cells[1], 'coder 1 min 30 s · checks 1.5 s · code-reviewer ?');
    });

    it('a malformed receipt, or a link in its place, is not read: the rows stay, with a note', async () => {
      const copy = tempRoot('loop-run-copy-');
      made.push(copy);
      cpSync(repo, copy, { recursive: true });
      const model = buildOverview(ledgerOf(copy, 'run-1'), null, 100);
      const runId = model.runAttempts[0]!.runId;
      const receipt = join(copy, '.loop', 'runs', runId, 'final-receipt.json');
      writeFileSync(receipt, '{"final_verdict": "PASS", ');
      let shown = withKindFacts(model, await readKindFacts(copy, model, noWorkOrders));
      assert.deepEqual(shown.receipts, []);
      assert.deepEqual(shown.kindNotes, [{ note: 'receipt-malformed', runId }]);
      assert.ok(shown.kindRows[0]?.phases, 'the phases are still read');

      // A link to a well-formed receipt elsewhere is not followed.
      const elsewhere = join(copy, 'elsewhere.json');
      writeFileSync(elsewhere, JSON.stringify({ final_verdict: 'PASS', stop_reason: 'X' }));
      rmSync(receipt);
      symlinkSync(elsewhere, receipt);
      shown = withKindFacts(model, await readKindFacts(copy, model, noWorkOrders));
      assert.deepEqual(shown.receipts, []);
      assert.deepEqual(shown.kindNotes, [{ note: 'receipt-malformed', runId }]);

      rmSync(receipt);
      shown = withKindFacts(model, await readKindFacts(copy, model, noWorkOrders));
      assert.deepEqual(shown.kindNotes, [{ note: 'receipt-missing', runId }]);
    });

    it('a missing run folder, or a link in its place, shows the ledger’s rows with a note', async () => {
      const copy = tempRoot('loop-run-gone-');
      made.push(copy);
      cpSync(repo, copy, { recursive: true });
      const model = buildOverview(ledgerOf(copy, 'run-1'), null, 100);
      const runId = model.runAttempts[0]!.runId;
      const folder = join(copy, '.loop', 'runs', runId);
      const moved = join(copy, 'moved-run');
      cpSync(folder, moved, { recursive: true });
      rmSync(folder, { recursive: true });
      symlinkSync(moved, folder);
      const facts = await readRunFolder(copy, runId);
      assert.deepEqual(facts, { kind: 'missing', runId });
      rmSync(folder);
      const shown = withKindFacts(model, await readKindFacts(copy, model, noWorkOrders));
      assert.deepEqual(shown.kindNotes, [{ note: 'run-folder-missing', runId }]);
      assert.deepEqual(shown.kindRows, model.kindRows);
      assert.deepEqual(shown.receipts, []);
    });
  });

  it('finds a run made with its own run root through the folder its evidence names', async () => {
    const repo = sampleRepo();
    made.push(repo);
    const r = runSample(repo, 'pass', ['--session', 'run-2', '--run-root', '.loop/other-runs']);
    assert.equal(r.code, 0, r.stderr);
    const model = buildOverview(ledgerOf(repo, 'run-2'), null, 100);
    assert.match(model.runAttempts[0]?.runDir ?? '', /^\.loop\/other-runs\/[^/]+$/);
    const shown = withKindFacts(model, await readKindFacts(repo, model, noWorkOrders));
    assert.deepEqual(shown.kindNotes, []);
    assert.equal(shown.receipts[0]?.verdict, 'PASS');
    assert.deepEqual(
      shown.kindRows[0]?.phases?.map((p) => p.phase),
      ['explorer', 'coder', 'checks', 'code-reviewer'],
    );
  });

  describe('the model alone', () => {
    it('leaves a run’s rows as the ledger has them for facts that are off, and never throws', () => {
      const model = buildOverview(runLedger('r-1', 2), null, 100);
      const odd: RunFolderFacts[] = [
        {
          kind: 'read',
          runId: 'r-1',
          receipt: ['not', 'a', 'receipt'],
          receiptPresent: true,
          runTimes: {},
          attemptTimes: { 1: { 'coder-prompt.md': Number.NaN }, 2: {} },
        },
      ];
      const shown = withKindFacts(model, { runs: odd });
      assert.deepEqual(shown.kindRows, model.kindRows);
      assert.deepEqual(shown.kindNotes, [{ note: 'receipt-malformed', runId: 'r-1' }]);
      // Facts of another run, or none: nothing changes.
      assert.deepEqual(
        withKindFacts(model, { runs: [{ kind: 'missing', runId: 'other' }] }).kindRows,
        model.kindRows,
      );
      assert.deepEqual(withKindFacts(model, {}), model);
    });

    it('gives a work session nothing of a run’s or a work order’s', () => {
      const model = buildOverview(syntheticLedger(3), null, 100);
      const shown = withKindFacts(model, {
        runs: [{ kind: 'missing', runId: 'x' }],
        workOrder: {
          cap: 3,
          runState: { attempts: 1 },
          found: true,
          reviewVerdict: 'pass',
          critiqueBlocking: false,
        },
      });
      assert.equal(shown, model);
      assert.equal(shown.attemptCap, null);
    });
  });

  describe('a work order', () => {
    let root: string;
    let model: OverviewModel;
    before(() => {
      root = tempRoot('loop-wo-facts-');
      made.push(root);
      const wo = new WoLedger(root, () => undefined);
      const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
      wo.dispatch('wo-1', 1, at(0));
      wo.phase('wo-1', 1, 'build', at(1));
      wo.close('wo-1', 'revise');
      wo.dispatch('wo-1', 2, at(2));
      wo.phase('wo-1', 2, 'build', at(3));
      wo.phase('wo-1', 2, 'review', at(4));
      model = buildOverview(ledgerOf(root, 'wo-1'), null, 100);
    });

    function task(files: Record<string, string>): string {
      const taskDir = tempRoot('loop-wo-task-');
      made.push(taskDir);
      mkdirSync(join(taskDir, 'work-orders'));
      for (const [name, text] of Object.entries(files))
        writeFileSync(join(taskDir, 'work-orders', name), text);
      return taskDir;
    }
    const WO_FILE =
      '---\nid: local:t#wo-1\ntitle: One\nstatus: in_progress\n---\n## Files to touch\n- `a.ts`\n';

    it('a queue run from the CLI with --cap shows attempts n / the cap that run used, not the setting’s', async () => {
      // Every review fails: two attempts under --cap 4, then the run stops (the fake reviewer's plan).
      const t = makeTask([{ n: 1 }], { git: true });
      made.push(t.root);
      const r = woRun(t, {
        plan: { 'wo-01': { review: ['fail', 'fail', 'fail', 'fail'] } },
        extra: ['--cap', '4'],
      });
      assert.notEqual(r.code, 0, 'every review failed');
      const sidecar = readJson(join(t.dir, 'wo-01.run.json'));
      assert.equal(sidecar.cap, 4, 'the run-state file records the cap its dispatch used');
      assert.equal(sidecar.attempts, 4);
      const built = buildOverview(ledgerOf(t.root, 'wo-01'), null, 100);
      assert.equal(built.kind, 'work-order');
      // The window's setting says 2: the run's own cap wins.
      const shown = withKindFacts(
        built,
        await readKindFacts(t.root, built, async () => ({ taskPaths: [t.task], cap: 2 })),
      );
      assert.equal(shown.attempts, 4);
      assert.equal(shown.attemptCap, 4);
      // A run-state file of an older version (no cap): the setting's cap, as before.
      delete sidecar.cap;
      writeFileSync(join(t.dir, 'wo-01.run.json'), JSON.stringify(sidecar));
      const older = withKindFacts(
        built,
        await readKindFacts(t.root, built, async () => ({ taskPaths: [t.task], cap: 2 })),
      );
      assert.equal(older.attemptCap, 2);
    });

    it('shows attempts n / cap from its run-state file and the current attempt’s verdicts', async () => {
      const taskDir = task({
        'wo-1-one.md': WO_FILE,
        'wo-1.run.json': JSON.stringify({ wo: 'wo-1', attempts: 2, halted: false }),
        'wo-1._review.json': JSON.stringify({ gate_specific: { overall_verdict: 'pass' } }),
      });
      const facts = await readKindFacts(root, model, async () => ({ taskPaths: [taskDir], cap: 5 }));
      const shown = withKindFacts(model, facts);
      assert.equal(shown.attempts, 2);
      assert.equal(shown.attemptCap, 5);
      assert.deepEqual(shown.kindNotes, []);
      assert.deepEqual(
        shown.kindRows.map((r) => r.cells),
        [
          ['1', 'build', 're-dispatched'],
          ['2', 'build, review', 'in progress · review pass'],
        ],
      );
    });

    it('a halted work order says so beside its last attempt', async () => {
      const taskDir = task({
        'wo-1-one.md': WO_FILE,
        'wo-1.run.json': JSON.stringify({
          wo: 'wo-1',
          attempts: 3,
          halted: true,
          halt_reason: 'critique_critical',
        }),
      });
      const shown = withKindFacts(
        model,
        await readKindFacts(root, model, async () => ({ taskPaths: [taskDir], cap: 3 })),
      );
      assert.equal(shown.attempts, 3);
      assert.equal(shown.attemptCap, 3);
      assert.equal(shown.kindRows[1]?.cells[2], 'in progress · halted (critique_critical)');
    });

    it('a missing work-order file or a malformed run-state file: the ledger’s count, with a note', async () => {
      const none = withKindFacts(
        model,
        await readKindFacts(root, model, async () => ({ taskPaths: [task({})], cap: 3 })),
      );
      assert.equal(none.attempts, 2, 'counted from the ledger’s epochs');
      assert.equal(none.attemptCap, null);
      assert.deepEqual(none.kindNotes, [{ note: 'work-order-missing', runId: null }]);
      assert.deepEqual(none.kindRows, model.kindRows);

      const broken = task({ 'wo-1-one.md': WO_FILE, 'wo-1.run.json': '{"attempts": ' });
      const shown = withKindFacts(
        model,
        await readKindFacts(root, model, async () => ({ taskPaths: [broken], cap: 3 })),
      );
      assert.equal(shown.attempts, 2);
      assert.equal(shown.attemptCap, 3);
      assert.deepEqual(shown.kindNotes, [{ note: 'run-state-malformed', runId: null }]);
    });
  });
});
