// `node bench/overview.mjs`: the session overview's and the dashboard's host work.
// 1. Building the model (every series downsampled per pixel bucket) from an already parsed ledger
//    of 100, 10,000 and 100,000 iterations, and the size of the message it posts.
// 2. Opening an overview as the extension does (overviewRunner.ts): the worker thread reads the
//    ledger file and prepares the model; measured from the request to the answer (a fresh runner,
//    so the worker's start and a cold read count), the redraw of an unchanged file, and the host's
//    event-loop delay (p99 and max) meanwhile; beside it, the same open done on the host thread.
// 3. The dashboard over 500 sessions: the tree's read of every ledger plus the rows
//    (dashboardRows.ts), its event-loop delay, and the rows alone (what each redraw costs).
// 2b. A cold open as a page does it: the first paint (a glance at the file's head and tail, with
//    the newest iterations charted) and the complete model (a long sealed ledger: its charts'
//    fields streamed from the file, overviewSealed.ts), against reading + one JSON.parse of the
//    same file in the same run; wall and process CPU (host and worker threads) of each.
// Needs `node scripts/build.mjs` first (dist/overviewWorker.js). A benchmark, not a test: prints
// what it measured and exits 0. COUNTS=100,10000 limits part 2 to those sizes. COMPARE_WORKER=
// <another build's dist/overviewWorker.js> adds, to the cold open, that build's complete model
// measured in the same rounds (interleaved) and this build's time as a ratio of it; COLD_ROUNDS=5
// sets how many cold opens (default 2 at 100,000 iterations, else 3). "open after tree
// read": the open once the Sessions view has read the ledger in the shared worker (it keeps it).
import { loadSources } from './bundle.mjs';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

const repo = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-overview-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const m = await loadSources(
  work,
  'overview-entry',
  `
      export { buildOverview } from './src/engine/overview/model';
      export { syntheticLedger } from './test/unit/overview/synthetic-ledger';
      export { serializeLedger } from './src/store/ledger-file';
      export { readSessionAsync, readSessionsAsync } from './src/extension/sessions/sessionEntry';
      export { prepareOverview } from './src/extension/overview/overviewPrepare';
      export { OverviewRunner } from './src/extension/overview/overviewRunner';
      export { SessionsReader } from './src/extension/sessions/sessionsReader';
      export { currentRows } from './src/extension/overview/dashboardRows';`,
);
const WORKER = join(repo, 'dist', 'overviewWorker.js');
const COMPARE_WORKER = process.env.COMPARE_WORKER;
const BUCKETS = 400;
const ms = (v) => v.toFixed(1);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpuMs = (usage) => (usage.user + usage.system) / 1000;

/** `work`'s wall time and the event-loop delay (p99, max, in ms) while it ran. */
async function withLoopDelay(work) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const t0 = performance.now();
  // This thread's busy time (the worker's is not counted): steadier than the delay on a loaded machine.
  const elu = performance.eventLoopUtilization();
  const result = await work();
  const elapsed = performance.now() - t0;
  const busy = performance.eventLoopUtilization(elu).active;
  histogram.disable();
  return { result, elapsed, p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6, busy };
}

// 1. The model from a parsed ledger.
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const COUNTS = (process.env.COUNTS ?? '100,10000,100000').split(',').map(Number);
const modelRows = [];
for (const count of COUNTS) {
  const ledger = m.syntheticLedger(count);
  m.buildOverview(ledger, null, BUCKETS); // warm-up
  const times = [];
  let bytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    const model = m.buildOverview(ledger, null, BUCKETS);
    times.push(performance.now() - t0);
    bytes = JSON.stringify(model).length;
  }
  modelRows.push({
    iterations: count,
    'median ms': ms(median(times)),
    'max ms': ms(Math.max(...times)),
    'message KB': (bytes / 1024).toFixed(1),
  });
}
console.log('model from a parsed ledger (buildOverview):');
console.table(modelRows);

// 2. Opening an overview from the ledger file, through the worker and on the host.
if (!existsSync(WORKER)) {
  console.log('(no dist/overviewWorker.js: run `node scripts/build.mjs` to measure opening an overview)');
} else {
  const root = join(work, 'ws');
  mkdirSync(join(root, '.loop', 'ledgers'), { recursive: true });
  const openRows = [];
  const coldRows = [];
  for (const count of COUNTS) {
    const session = `s${count}`;
    const file = join(root, '.loop', 'ledgers', `${session}.json`);
    writeFileSync(file, m.serializeLedger(m.syntheticLedger(count, session)));
    const rounds = count >= 100_000 ? 3 : 5;
    const firstRows = {
      parse: [],
      parseCpu: [],
      first: [],
      complete: [],
      completeCpu: [],
      compared: [],
      comparedCpu: [],
      glanced: 0,
      max: 0,
    };
    const opens = [];
    const redraws = [];
    let p99 = 0;
    let max = 0;
    for (let i = 0; i < rounds; i++) {
      const runner = new m.OverviewRunner(WORKER);
      const open = await withLoopDelay(() => runner.overview(root, session, BUCKETS));
      if (open.result.kind !== 'model')
        throw new Error(`bench: ${session} did not open: ${open.result.kind}`);
      opens.push(open.elapsed);
      p99 = Math.max(p99, open.p99);
      max = Math.max(max, open.max);
      const t0 = performance.now();
      await runner.overview(root, session, BUCKETS);
      redraws.push(performance.now() - t0);
      runner.dispose();
    }
    // As the extension opens it from the Sessions view: the tree has read the ledger in the
    // same worker, which kept it, so the open parses nothing again.
    const reader = new m.SessionsReader(WORKER);
    await reader.sessions(root);
    const shared = new m.OverviewRunner(reader.channel);
    const afterTree = await withLoopDelay(() => shared.overview(root, session, BUCKETS));
    if (afterTree.result.kind !== 'model') throw new Error(`bench: ${session} did not open after the tree`);
    shared.dispose();
    reader.dispose();
    // A cold open as a page does it (runner.open): the first paint is the glance at the file's
    // head and tail when the full answer is slower than GLANCE_AFTER_MS, else the full answer;
    // "complete" is the model of every iteration. Beside it, the same run's baseline: reading the
    // file and one plain JSON.parse of it, no checks, no model.
    const coldRounds = Number(process.env.COLD_ROUNDS ?? (count >= 100_000 ? 2 : 3));
    for (let i = 0; i < coldRounds; i++) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const parsed = JSON.parse(await readFile(file, 'utf8'));
      firstRows.parse.push(performance.now() - t0);
      firstRows.parseCpu.push(cpuMs(process.cpuUsage(c0)));
      if (!Array.isArray(parsed.iterations)) throw new Error('bench: the baseline parse found no records');
      const runner = new m.OverviewRunner(WORKER);
      let first = null;
      // Process CPU: the host's and the worker thread's (the machine is shared; CPU is what a
      // quiet machine would spend, near enough, where wall time counts the neighbours' too).
      const c1 = process.cpuUsage();
      const open = await withLoopDelay(() => {
        const started = performance.now();
        return runner.open(root, session, BUCKETS, undefined, (glance) => {
          if (glance.kind === 'model' && glance.model.partial) first = performance.now() - started;
        });
      });
      firstRows.completeCpu.push(cpuMs(process.cpuUsage(c1)));
      runner.dispose();
      if (open.result.kind !== 'model' || open.result.model.partial)
        throw new Error(`bench: ${session} did not open completely`);
      firstRows.first.push(first ?? open.elapsed);
      firstRows.complete.push(open.elapsed);
      firstRows.glanced += first === null ? 0 : 1;
      firstRows.max = Math.max(firstRows.max, open.max);
      if (COMPARE_WORKER) {
        // The other build's worker: the same cold open, right after this build's in each round.
        const other = new m.OverviewRunner(COMPARE_WORKER);
        const c2 = process.cpuUsage();
        const t2 = performance.now();
        const answer = await other.open(root, session, BUCKETS, undefined, () => {});
        firstRows.compared.push(performance.now() - t2);
        firstRows.comparedCpu.push(cpuMs(process.cpuUsage(c2)));
        other.dispose();
        if (answer.kind !== 'model' || answer.model.partial)
          throw new Error(`bench: ${session} did not open completely with ${COMPARE_WORKER}`);
      }
    }
    coldRows.push({
      iterations: count,
      'baseline: read + JSON.parse ms': ms(median(firstRows.parse)),
      'baseline CPU ms': ms(median(firstRows.parseCpu)),
      'first paint ms': ms(median(firstRows.first)),
      'first paint / baseline': (median(firstRows.first) / median(firstRows.parse)).toFixed(2),
      'glance shown': `${firstRows.glanced}/${firstRows.complete.length}`,
      'complete ms': ms(median(firstRows.complete)),
      'complete / baseline': (median(firstRows.complete) / median(firstRows.parse)).toFixed(2),
      'complete CPU ms (host + worker)': ms(median(firstRows.completeCpu)),
      'complete CPU / baseline CPU': (median(firstRows.completeCpu) / median(firstRows.parseCpu)).toFixed(2),
      'host loop max ms': ms(firstRows.max),
      ...(COMPARE_WORKER && {
        'compared build: complete ms': ms(median(firstRows.compared)),
        'complete / compared build': (median(firstRows.complete) / median(firstRows.compared)).toFixed(2),
        'compared build: CPU ms': ms(median(firstRows.comparedCpu)),
        'CPU / compared build': (median(firstRows.completeCpu) / median(firstRows.comparedCpu)).toFixed(2),
      }),
    });
    // The way it was: the host thread reads and prepares (one round: it is the slow one).
    const host = await withLoopDelay(async () =>
      m.prepareOverview((await m.readSessionAsync(root, session))?.entry, BUCKETS),
    );
    openRows.push({
      iterations: count,
      'file MB': (statSync(file).size / 1e6).toFixed(1),
      'open ms (median)': ms(median(opens)),
      'open ms (max)': ms(Math.max(...opens)),
      'redraw ms': ms(median(redraws)),
      'open after tree read ms': ms(afterTree.elapsed),
      'host loop p99 ms': ms(p99),
      'host loop max ms': ms(max),
      'on host: open ms': ms(host.elapsed),
      'on host: loop max ms': ms(host.max),
    });
    rmSync(file, { force: true });
  }
  console.log('opening an overview from its ledger file (worker thread; "on host" = the same work inline):');
  console.table(openRows);
  console.log(
    'a cold open as the page does it (fresh worker; first paint = the glance at the newest records, or the full model when that is quicker):',
  );
  console.table(coldRows);
}

// 3. The dashboard over 500 sessions of 20 iterations each.
const SESSIONS = 500;
const droot = join(work, 'dash');
const ddir = join(droot, '.loop', 'ledgers');
mkdirSync(ddir, { recursive: true });
for (let i = 0; i < SESSIONS; i++) {
  const session = `loop-${String(i).padStart(3, '0')}`;
  writeFileSync(join(ddir, `${session}.json`), m.serializeLedger(m.syntheticLedger(20, session)));
}
const folder = { name: 'dash', path: droot };
// Before: the tree read every ledger on the host thread; after: in the ledger worker (as the
// extension does now). Interleaved round by round; the rows are built on the host either way.
const dash = { host: [], worker: [] };
let dashBytes = 0;
for (let i = 0; i < 5; i++) {
  for (const where of ['host', 'worker']) {
    const reader = where === 'worker' ? new m.SessionsReader(WORKER) : null;
    const open = await withLoopDelay(async () => {
      const timed = reader ? await reader.sessions(droot) : await m.readSessionsAsync(droot);
      return m.currentRows(timed.map(({ entry }) => ({ root: folder, entry })));
    });
    reader?.dispose();
    if (open.result.length !== SESSIONS)
      throw new Error(`bench: the dashboard lists ${open.result.length} rows`);
    dash[where].push(open);
    dashBytes = JSON.stringify({ type: 'dashboard', rows: open.result }).length;
  }
}
const rowTimes = [];
const entries = (await m.readSessionsAsync(droot)).map(({ entry }) => ({ root: folder, entry }));
for (let i = 0; i < 15; i++) {
  const t0 = performance.now();
  m.currentRows(entries);
  rowTimes.push(performance.now() - t0);
}
console.log(`dashboard over ${SESSIONS} sessions × 20 iterations (5 interleaved rounds):`);
console.table(
  Object.entries(dash).map(([where, opens]) => ({
    'ledgers read': where === 'host' ? 'on the host (before)' : 'in the worker (now)',
    'open ms (median)': ms(median(opens.map((o) => o.elapsed))),
    'open ms (max)': ms(Math.max(...opens.map((o) => o.elapsed))),
    'host loop p99 ms (median)': ms(median(opens.map((o) => o.p99))),
    'host loop max ms': ms(Math.max(...opens.map((o) => o.max))),
    'host busy ms (median)': ms(median(opens.map((o) => o.busy))),
    'rows only ms': ms(median(rowTimes)),
    'message KB': (dashBytes / 1024).toFixed(1),
  })),
);
