// `npm run bench` (second part): the Sessions tree's own work over 500 sessions × 20 iterations —
// a full refresh (discover + read + status + labels of every session), a targeted refresh of
// one changed session (what the file watcher triggers), and expanding one session. Rendering
// is VS Code's. Activation needs a real extension host: the integration tier prints it
// ("activation: … activate() itself reports N ms"); activate() reads no ledger, the tree reads
// them on first expansion, which is the full refresh measured here.
// A benchmark, not a test: prints what it measured and exits 0.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const SESSIONS = 500;
const ITERATIONS = 20;
const ROUNDS = 15;
const repo = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-tree-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

// The tree's pure parts (no vscode), bundled the way the extension bundles them.
const bundle = join(work, 'tree-entry.mjs');
await build({
  stdin: {
    contents: `
      export { readSessionsAsync, readSessionAsync } from './src/extension/sessions/sessionEntry';
      export { listSessions, readLedgerFile } from './src/store';
      export { epochsOf } from './src/extension/sessions/epochs';
      export * from './src/extension/sessions/labels';`,
    resolveDir: repo,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: bundle,
  logLevel: 'error',
});
const tree = await import(pathToFileURL(bundle).href);

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
  await fn();
  await new Promise((resolve) => setTimeout(resolve, 20));
  globalThis.clearInterval(ticker);
  histogram.disable();
  return { p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 };
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
console.log('  activate() in a real extension host: printed by bench/brief-panel.mjs (it starts VS Code)');
