// `npm run bench` (second part): the Sessions tree's own work over 500 sessions × 20 iterations —
// a full refresh (discover + read + status + labels of every session), a targeted refresh of
// one changed session (what the file watcher triggers), and expanding one session. Rendering
// is VS Code's. Activation needs a real extension host: the integration tier prints it
// ("activation: … activate() itself reports N ms"); activate() reads no ledger, the tree reads
// them on first expansion, which is the full refresh measured here.
// A benchmark, not a test: prints what it measured and exits 0.
import { loadSources } from './bundle.mjs';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SESSIONS = 500;
const ITERATIONS = 20;
const ROUNDS = 15;
const repo = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-tree-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

// The tree's pure parts (no vscode), bundled the way the extension bundles them.
const tree = await loadSources(
  work,
  'tree-entry',
  `
      export { readSessionsAsync, readSessionAsync } from './src/extension/sessions/sessionEntry';
      export { SessionsReader } from './src/extension/sessions/sessionsReader';
      export { listSessions, readLedgerFile } from './src/store';
      export { epochsOf } from './src/extension/sessions/epochs';
      export * from './src/extension/sessions/labels';`,
);

const rubric = [
  {
    dimension: 'failing-tests',
    evidence_command: 'npm test',
    baseline: 10,
    target: 0,
    weight: 20,
    failure_threshold: 5,
    direction: 'lower-is-better',
    hard_gate: true,
  },
  {
    dimension: 'coverage',
    evidence_command: 'npm run coverage',
    baseline: 60,
    target: 80,
    weight: 80,
    failure_threshold: 50,
    direction: 'higher-is-better',
    hard_gate: false,
  },
];
function record(n) {
  const measurements = { 'failing-tests': Math.max(0, 10 - n / 2), coverage: 60 + n };
  return {
    actions: [`action-${n}`],
    baseline: measurements,
    blocker: null,
    commands_run: ['npm test'],
    critic_brief: null,
    critic_next: null,
    critic_verdict: null,
    decision: null,
    dependency_missing: null,
    epoch: 1,
    error_signature: null,
    evaluation: { dimensions: [], hard_gate_failures: [], verdict: 'pass', weighted_total: 0.5 + n / 100 },
    evidence: null,
    evidence_paths: [],
    files_changed: ['src/a.ts'],
    measurements,
    n,
    note: `iteration ${n}`,
    outcome: 'continue',
    recommended_next: null,
    reported_outcome: 'continue',
    stall: null,
    state_hash: null,
    timestamp: '2025-01-01T00:00:00Z',
  };
}
const ledgers = join(work, '.loop', 'ledgers');
mkdirSync(ledgers, { recursive: true });
const iterations = Array.from({ length: ITERATIONS }, (_, i) => record(i + 1));
for (let s = 0; s < SESSIONS; s++) {
  const ledger = {
    schema_version: 1,
    session: `session-${String(s).padStart(3, '0')}`,
    status: 'open',
    final_outcome: null,
    epoch: 1,
    epochs: [],
    contract: {
      purpose: 'Raise coverage',
      owner: 'x',
      starting_state: 'x',
      inputs: [],
      expected_outputs: [],
      success_criteria: [],
      failure_criteria: [],
      dependencies: [],
      iteration_limit: 50,
      timeout_behaviour: 'x',
      escalation_path: 'x',
      quality_rubric: rubric,
    },
    iterations,
    completed_actions: iterations.map((r) => r.actions[0]),
    resumed: 0,
    stall_threshold: 3,
  };
  writeFileSync(join(ledgers, `${ledger.session}.json`), JSON.stringify(ledger, null, 2));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn) {
  const samples = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], min: samples[0] };
}

// Before: the tree listed every ledger (read + parse) and then read + parsed each again, all
// synchronously on the extension host. Measured here as the baseline of the same run.
const before = await time(() => {
  for (const summary of tree.listSessions(work)) tree.readLedgerFile(summary.path);
});
const full = await time(async () => {
  for (const { entry } of await tree.readSessionsAsync(work))
    if (entry.kind === 'ledger') tree.sessionDescription(entry);
});
const targeted = await time(async () => {
  const { entry } = await tree.readSessionAsync(work, 'session-250');
  tree.sessionDescription(entry);
});
const { entry } = await tree.readSessionAsync(work, 'session-250');
const expand = await time(() => {
  for (const epoch of tree.epochsOf(entry.ledger)) {
    tree.epochDescription(epoch);
    for (const r of epoch.records) {
      tree.iterationLabel(r);
      tree.iterationDescription(r);
    }
  }
});

// How long the event loop is held while the whole workspace loads: the sync reader holds it for
// the whole read; the async one only for one ledger's parse at a time.
const { monitorEventLoopDelay } = await import('node:perf_hooks');
async function loopDelayDuring(fn) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const ticker = globalThis.setInterval(() => {}, 1);
  await new Promise((resolve) => setTimeout(resolve, 20));
  // The host thread's own busy time (event-loop utilization counts this thread only, not the
  // worker's): less sensitive to a loaded machine than the delay percentiles.
  const elu = performance.eventLoopUtilization();
  await fn();
  const busy = performance.eventLoopUtilization(elu).active;
  await new Promise((resolve) => setTimeout(resolve, 20));
  globalThis.clearInterval(ticker);
  histogram.disable();
  return { p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6, busy };
}
const syncDelay = await loopDelayDuring(() => {
  for (const summary of tree.listSessions(work)) tree.readLedgerFile(summary.path);
});
const asyncDelay = await loopDelayDuring(() => tree.readSessionsAsync(work));

const fmt = (t) => `median ${t.median.toFixed(1)} ms (min ${t.min.toFixed(1)} ms)`;
console.log(`\nSessions tree, ${SESSIONS} sessions × ${ITERATIONS} iterations (${ROUNDS} rounds):`);
console.log(`  before: sync list + re-read of every ledger:     ${fmt(before)}`);
console.log(
  `  full refresh (read every ledger, status, labels): ${fmt(full)}  = ${(full.median / before.median).toFixed(2)}× before`,
);
console.log(`  targeted refresh of one changed session:          ${fmt(targeted)}`);
console.log(`  expand one session (epochs + 20 iteration rows):   ${fmt(expand)}`);
console.log(
  `  event-loop delay while every ledger loads: sync p99 ${syncDelay.p99.toFixed(1)} ms (max ${syncDelay.max.toFixed(1)}), async p99 ${asyncDelay.p99.toFixed(1)} ms (max ${asyncDelay.max.toFixed(1)})`,
);

// Where the tree parses: on the host (the inline reader, as before) or in the worker thread
// (SessionsReader, as the extension does now), over the same 500 sessions plus a few long ledgers,
// interleaved round by round. Needs `node scripts/build.mjs` (dist/overviewWorker.js).
const WORKER = join(repo, 'dist', 'overviewWorker.js');
const LONG = Number(process.env.LONG ?? 20_000);
const LONG_LEDGERS = 3;
for (let s = 0; s < LONG_LEDGERS; s++) {
  const long = Array.from({ length: LONG }, (_, i) => record(i + 1));
  const session = `long-${s}`;
  const ledger = JSON.parse(readFileSync(join(ledgers, 'session-000.json'), 'utf8'));
  Object.assign(ledger, { session, iterations: long, completed_actions: long.map((r) => r.actions[0]) });
  writeFileSync(join(ledgers, `${session}.json`), JSON.stringify(ledger, null, 2));
}
const longBytes = statSync(join(ledgers, 'long-0.json')).size;
const hostRows = [];
const workerRows = [];
for (let round = 0; round < 3; round++) {
  let hostTime = 0;
  const host = await loopDelayDuring(async () => {
    const t0 = performance.now();
    await tree.readSessionsAsync(work);
    hostTime = performance.now() - t0;
  });
  hostRows.push({ ...host, time: hostTime });
  const reader = new tree.SessionsReader(WORKER);
  let workerTime = 0;
  const inWorker = await loopDelayDuring(async () => {
    const t0 = performance.now();
    await reader.sessions(work);
    workerTime = performance.now() - t0;
  });
  if (reader.readInWorker !== SESSIONS + LONG_LEDGERS)
    throw new Error(`bench: the worker read ${reader.readInWorker} of ${SESSIONS + LONG_LEDGERS} ledgers`);
  reader.dispose();
  workerRows.push({ ...inWorker, time: workerTime });
}
const summary = (rows) =>
  `read ${median(rows.map((r) => r.time)).toFixed(0)} ms, loop p99 ${median(rows.map((r) => r.p99)).toFixed(1)} ms (max ${Math.max(...rows.map((r) => r.max)).toFixed(1)} ms), host thread busy ${median(rows.map((r) => r.busy)).toFixed(0)} ms`;
console.log(
  `\nSessions tree over ${SESSIONS} × ${ITERATIONS} plus ${LONG_LEDGERS} × ${LONG} iterations (${(longBytes / 1e6).toFixed(1)} MB each), 3 interleaved rounds (medians):`,
);
console.log(`  before: parsed on the host (inline reader):  ${summary(hostRows)}`);
console.log(`  after:  parsed in the worker (SessionsReader): ${summary(workerRows)}`);
console.log('  activate() in a real extension host: printed by bench/brief-panel.mjs (it starts VS Code)');
