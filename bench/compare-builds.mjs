// `node bench/compare-builds.mjs <A/dist/cli.js> <B/dist/cli.js>`: the long-ledger read cases of
// `npm run bench` (status and iterate at 1,000 and 10,000 iterations, on a ledger the build wrote
// itself and on one the original engine wrote) run by two builds of the CLI side by side, to tell
// a real regression from machine noise. Every round runs each case once per build, A then B or
// B then A by turns, the cases in a rotating order, beside a bare `node -e 0`; the first rounds
// are a warm-up. Each build reads ledgers it prepared itself (its own layout and seal), so
// neither is judged on the other's files.
//
// Three measures per run: wall time (spawn to exit); the child's CPU time from /proc/self/stat
// (10 ms ticks, so its mean over the rounds is what counts); and the child's own CPU time in
// microseconds, as process.cpuUsage() reports it when the process exits (a one-line preload,
// the same for both builds; it leaves out the exit itself). On a loaded machine the CPU times
// are the steadier measure: wall time counts every moment a child waited for a core.
//
// Environment: COMPARE_ROUNDS (default 30), COMPARE_ONLY=<regex> to pick cases;
// COMPARE_PLAIN_A / COMPARE_PLAIN_B set LOOP_LEDGER_BENCH_PLAIN for that side's runs (one build
// against itself with fast paths switched off: `… dist/cli.js dist/cli.js` with COMPARE_PLAIN_B).
// A benchmark, not a test: it prints what it measured and exits 0 (1 when a command fails).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import {
  childrenCpuMs,
  contract,
  env,
  ledgerFile,
  ledgerOf,
  makeBaseLedger,
  mean,
  median,
  originalLedgerOf,
  printTable,
} from './fixtures.mjs';

const [cliA, cliB] = process.argv.slice(2).map((path) => resolve(path));
if (cliA === undefined || cliB === undefined) {
  console.error('usage: node bench/compare-builds.mjs <A/dist/cli.js> <B/dist/cli.js>');
  process.exit(2);
}
const ROUNDS = Number(process.env.COMPARE_ROUNDS ?? 30);
const WARMUP = 2;
const loadAt = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const loadBefore = loadAt();

const work = mkdtempSync(join(tmpdir(), 'loop-ledger-compare-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const preload = join(work, 'cpu-at-exit.cjs');
writeFileSync(
  preload,
  "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write(`\\ncpu-at-exit-us ${u.user + u.system}\\n`); });\n",
);

/** Runs `node …args`; its wall ms, tick CPU ms and own CPU µs. Exits the benchmark on a failure. */
function timed(args, plain) {
  const cpuBefore = childrenCpuMs();
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', preload, ...args], {
    env: plain ? { ...env, LOOP_LEDGER_BENCH_PLAIN: plain } : env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuMs = childrenCpuMs() - cpuBefore;
  if (r.status !== 0) {
    console.error(`compare: node ${args.join(' ')} exited ${r.status}\n${String(r.stderr).slice(0, 2000)}`);
    process.exit(1);
  }
  const own = /cpu-at-exit-us (\d+)/.exec(String(r.stderr));
  return { ms, cpuMs, ownMs: own === null ? NaN : Number(own[1]) / 1000 };
}

const contractPath = join(work, 'contract.json');
writeFileSync(contractPath, JSON.stringify(contract, null, 2) + '\n');
const templateRoot = join(work, 'template');
mkdirSync(templateRoot);
const base10 = makeBaseLedger(templateRoot, contractPath);

/** A workspace per build: its own ledgers at 1,000 and 10,000, and the original's, with restorers. */
function workspaceFor(label, cli) {
  const root = join(work, label);
  mkdirSync(join(root, '.loop', 'ledgers'), { recursive: true });
  const restorers = {};
  for (const [session, count] of [
    ['i1k', 1_000],
    ['i10k', 10_000],
  ]) {
    writeFileSync(ledgerFile(root, session), ledgerOf(base10, count - 1, session));
    timed([
      cli,
      'iterate',
      '--root',
      root,
      '--session',
      session,
      '--outcome',
      'continue',
      '--action',
      'seed',
    ]);
    const saved = join(work, `${label}-${session}.json`);
    copyFileSync(ledgerFile(root, session), saved);
    restorers[session] = () => copyFileSync(saved, ledgerFile(root, session));
  }
  for (const [session, count] of [
    ['f1k', 1_000],
    ['f10k', 10_000],
  ]) {
    const saved = join(work, `${label}-${session}.json`);
    writeFileSync(saved, originalLedgerOf(base10, count, session));
    restorers[session] = () => copyFileSync(saved, ledgerFile(root, session));
    restorers[session]();
  }
  return { root, restorers };
}

const builds = [
  { label: 'A', cli: cliA, plain: process.env.COMPARE_PLAIN_A, ...workspaceFor('A', cliA) },
  { label: 'B', cli: cliB, plain: process.env.COMPARE_PLAIN_B, ...workspaceFor('B', cliB) },
];

let round = 0;
const kinds = [
  ['status @1,000', 'status', 'i1k'],
  ['iterate @1,000', 'iterate', 'i1k'],
  ['status @10,000', 'status', 'i10k'],
  ['iterate @10,000', 'iterate', 'i10k'],
  ['status @1,000, first touch', 'status', 'f1k'],
  ['iterate @1,000, first touch', 'iterate', 'f1k'],
  ['status @10,000, first touch', 'status', 'f10k'],
  ['iterate @10,000, first touch', 'iterate', 'f10k'],
];
const only = process.env.COMPARE_ONLY ? new RegExp(process.env.COMPARE_ONLY) : null;
const cases = [{ name: 'node -e 0', runs: { bare: [] } }];
for (const [name, command, session] of kinds) {
  if (only !== null && !only.test(name)) continue;
  cases.push({ name, command, session, runs: { A: [], B: [] } });
}

function runCase(c, build) {
  build.restorers[c.session]();
  const args = [build.cli, c.command, '--root', build.root, '--session', c.session, '--json'];
  if (c.command === 'iterate') args.push('--outcome', 'continue', '--action', `r${round}`);
  return timed(args, build.plain);
}

for (let r = 0; r < WARMUP + ROUNDS; r += 1) {
  const order = r % 2 === 0 ? [builds[0], builds[1]] : [builds[1], builds[0]];
  for (let k = 0; k < cases.length; k += 1) {
    const c = cases[(k + r) % cases.length];
    if (c.runs.bare) {
      const got = timed(['-e', '0']);
      if (r >= WARMUP) c.runs.bare.push(got);
      continue;
    }
    for (const build of order) {
      const got = runCase(c, build);
      if (r >= WARMUP) c.runs[build.label].push(got);
    }
  }
  round += 1;
}

// ---------------------------------------------------------------------------------------------
// Report: per case, each build's medians and means, and B against A.

const stats = (runs) => ({
  wall: median(runs.map((x) => x.ms)),
  tick: mean(runs.map((x) => x.cpuMs)),
  own: median(runs.map((x) => x.ownMs)),
});
const bare = stats(cases[0].runs.bare);
const rows = [
  [
    'case',
    'A wall',
    'B wall',
    'B/A wall',
    'A CPU',
    'B CPU',
    'B/A CPU',
    'A own CPU',
    'B own CPU',
    'B/A own',
    'A × node',
    'B × node',
  ],
];
rows.push([
  'node -e 0',
  bare.wall.toFixed(1),
  '',
  '',
  bare.tick.toFixed(1),
  '',
  '',
  bare.own.toFixed(1),
  '',
  '',
  '1.00',
  '1.00',
]);
for (const c of cases.slice(1)) {
  const a = stats(c.runs.A);
  const b = stats(c.runs.B);
  rows.push([
    c.name,
    a.wall.toFixed(1),
    b.wall.toFixed(1),
    (b.wall / a.wall).toFixed(3),
    a.tick.toFixed(1),
    b.tick.toFixed(1),
    (b.tick / a.tick).toFixed(3),
    a.own.toFixed(1),
    b.own.toFixed(1),
    (b.own / a.own).toFixed(3),
    (a.tick / bare.tick).toFixed(2),
    (b.tick / bare.tick).toFixed(2),
  ]);
}
for (const build of builds)
  console.log(
    `${build.label}: ${build.cli}${build.plain ? ` (LOOP_LEDGER_BENCH_PLAIN=${build.plain})` : ''}`,
  );
console.log(
  `${ROUNDS} interleaved rounds (node ${process.version}; load before ${loadBefore}, after ${loadAt()}; ${cases.length * 2 - 1} runs a round)`,
);
printTable(rows);
console.log('');
console.log(
  'wall: median ms; CPU: mean of the child’s user+system ms from /proc/self/stat (10 ms ticks); own CPU: median of process.cpuUsage() at exit, ms; × node: tick CPU against a bare node -e 0.',
);
