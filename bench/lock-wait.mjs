// `npm run bench` (lock wait): how long the extension host's event loop is held while a CLI
// holds a ledger's lock for 2 s and the extension records an iteration. Before: the store's
// synchronous wait (the CLI's default) on the host thread. Now: one attempt at a time, retried
// on timers (src/extension/workspace/ledgerWrites.ts). Event-loop delay by perf_hooks, in this
// process; the integration tier prints the same measurement inside a real extension host.
// A benchmark, not a test: prints what it measured and exits 0.
import { loadSources } from './bundle.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

// Just under the 2 s both writers wait, so the write lands once the holder lets go.
const HOLD_MS = 1_800;
const repo = new URL('..', import.meta.url).pathname;
const cli = join(repo, 'dist', 'cli.js');
const holder = join(repo, 'out', 'test', 'unit', 'helpers', 'hold-lock.js');
const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-lock-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const env = { ...process.env };
delete env.NODE_OPTIONS;
delete env.NODE_EXTRA_CA_CERTS;

const m = await loadSources(
  work,
  'lock-entry',
  `
      export { iterateOp } from './src/app/ledger/operations';
      export { writeWithoutBlocking } from './src/extension/workspace/ledgerWrites';`,
);

const contract = {
  purpose: 'p',
  owner: 'o',
  starting_state: 's',
  inputs: ['i'],
  expected_outputs: ['e'],
  success_criteria: ['s'],
  failure_criteria: ['f'],
  dependencies: ['node'],
  iteration_limit: 100,
  timeout_behaviour: 't',
  escalation_path: 'e',
  quality_rubric: [
    {
      dimension: 'd',
      evidence_command: 'node -e 0',
      baseline: 1,
      target: 0,
      weight: 1,
      failure_threshold: 2,
      direction: 'lower-is-better',
      hard_gate: false,
    },
  ],
};
writeFileSync(join(work, 'c.json'), JSON.stringify(contract));
const opened = spawnSync(
  process.execPath,
  [cli, 'open', '--root', work, '--session', 's', '--contract', join(work, 'c.json')],
  { env, encoding: 'utf8' },
);
if (opened.status !== 0) {
  console.error(`bench: open failed: ${opened.stderr}`);
  process.exit(1);
}
const ledger = join(work, '.loop', 'ledgers', 's.json');

function holdLock() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [holder, ledger, String(HOLD_MS)], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((done) => child.on('exit', done));
    child.stdout.on('data', (d) => (String(d).includes('locked') ? resolve({ exited }) : undefined));
    child.on('error', reject);
  });
}

async function measure(label, write) {
  const { exited } = await holdLock();
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  await new Promise((resolve) => setTimeout(resolve, 30)); // let the monitor take its first samples
  const started = performance.now();
  const outcome = await write();
  const ms = performance.now() - started;
  // Keep sampling a moment so a single long block is counted as one.
  await new Promise((resolve) => setTimeout(resolve, 50));
  histogram.disable();
  await exited;
  const p99 = histogram.percentile(99) / 1e6;
  const max = histogram.max / 1e6;
  console.log(
    `  ${label}: exit ${outcome.exitCode} after ${ms.toFixed(0)} ms; event-loop delay p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms`,
  );
  return p99;
}

console.log(`\nRecording an iteration while a CLI holds the lock ${HOLD_MS} ms:`);
const input = (n) => ({ outcome: 'continue', actions: [`a-${n}`], now: new Date() });
const before = await measure('before (store waits synchronously, 2 s default)', async () =>
  m.iterateOp(work, 's', input(1)),
);
const after = await measure('now (one attempt, async retries)              ', () =>
  m.writeWithoutBlocking((lock) => m.iterateOp(work, 's', input(2), lock)),
);
console.log(`  p99 now / before: ${(after / before).toFixed(3)} (aim: now < 50 ms)`);
