// `npm run bench` (scaling part): how time and peak memory grow with what must be read —
// `status` and `iterate` on ledgers of 10, 1,000, 10,000 and 100,000 iterations, `brief --json`
// on diffs of 1, 5, 20 and 100 MiB. Every case and a bare `node -e 0` run once per round, round
// after round, so machine noise hits all alike; times are medians, shown as multiples of the
// bare start measured in the same run. Peak RSS is the child's maximum resident set as
// GNU time reports it (the bare start is wrapped the same way).
//
// "per unit more" is the extra time over the row above divided by the extra size: roughly
// constant down a table means linear growth, rising means worse than linear. BENCH_SCALING_ROUNDS sets the rounds (default 3; the 100 MiB brief alone
// takes seconds on a busy machine). A benchmark, not a test: it exits 0 unless a command fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLI,
  childrenCpuMs,
  contract,
  env,
  makeBaseLedger,
  mean,
  median,
  prepared,
  printTable,
  realisticDiff,
} from './fixtures.mjs';

const ROUNDS = Math.max(1, Number(process.env.BENCH_SCALING_ROUNDS ?? 3));
const GNU_TIME = '/usr/bin/time';
const hasTime = existsSync(GNU_TIME);
const MiB = 1024 * 1024;

const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-scaling-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

/** Runs `node …args` (under GNU time when present): wall ms and peak RSS in KiB (or null). */
function measured(args) {
  const rssFile = join(work, 'rss.txt');
  const command = hasTime ? GNU_TIME : process.execPath;
  const argv = hasTime ? ['-f', '%M', '-o', rssFile, process.execPath, ...args] : args;
  const cpuBefore = childrenCpuMs();
  const started = process.hrtime.bigint();
  const r = spawnSync(command, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuMs = cpuBefore === null ? null : childrenCpuMs() - cpuBefore;
  if (r.status !== 0) {
    console.error(`bench: node ${args.join(' ').slice(0, 300)} exited ${r.status} ${r.signal ?? ''}`);
    console.error(String(r.stderr).slice(0, 2000));
    process.exit(1);
  }
  let rssKiB = null;
  if (hasTime) {
    // GNU time writes "Command exited…" first when the child failed; the number is last.
    rssKiB = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop());
  }
  return { ms, cpuMs, rssKiB };
}

const setupStarted = Date.now();
const contractPath = join(work, 'contract.json');
writeFileSync(contractPath, JSON.stringify(contract, null, 2) + '\n');
const verification = join(work, 'verification.txt');
writeFileSync(verification, 'npm test\n  412 passing (9s)\ncoverage: 66.2%\nbuild: 36.4 s\n');
const root = join(work, 'ws');
mkdirSync(root);
const base10 = makeBaseLedger(root, contractPath);

const cases = [{ family: 'bare', name: 'node -e 0', args: ['-e', '0'] }];
for (const count of [10, 1_000, 10_000, 100_000]) {
  const session = `n${count}`;
  const restore = prepared(base10, work, root, session, count);
  const at = ['--root', root, '--session', session, '--json'];
  cases.push({ family: 'status', size: count, args: [CLI, 'status', ...at], prepare: restore });
  cases.push({
    family: 'iterate',
    size: count,
    args: [CLI, 'iterate', ...at, '--outcome', 'continue', '--action', 'bench'],
    prepare: restore,
  });
}
const briefRestore = prepared(base10, work, root, 'brief', 10);
for (const mib of [1, 5, 20, 100]) {
  const diff = join(work, `${mib}.diff`);
  writeFileSync(diff, realisticDiff(mib * MiB));
  const at = ['--root', root, '--session', 'brief', '--json'];
  cases.push({
    family: 'brief',
    size: mib,
    args: [CLI, 'brief', ...at, '--diff-file', diff, '--verification-file', verification],
    prepare: briefRestore,
  });
}
for (const c of cases) c.runs = [];
process.stderr.write(
  `bench scaling: setup ${((Date.now() - setupStarted) / 1000).toFixed(1)} s; ${ROUNDS} rounds of ${cases.length} cases\n`,
);

for (let round = 0; round < ROUNDS; round += 1) {
  const start = round % cases.length;
  for (let k = 0; k < cases.length; k += 1) {
    const c = cases[(start + k) % cases.length];
    c.prepare?.();
    c.runs.push(measured(c.args));
  }
}

for (const c of cases) {
  c.ms = median(c.runs.map((r) => r.ms));
  c.cpu = c.runs[0].cpuMs === null ? null : mean(c.runs.map((r) => r.cpuMs));
  c.rss = hasTime ? Math.max(...c.runs.map((r) => r.rssKiB)) / 1024 : null;
}
const bare = cases[0];
const mb = (x) => (x === null ? 'n/a' : x.toFixed(1));

console.log('');
console.log(
  `Scaling, ${ROUNDS} interleaved rounds (median wall time; peak RSS is the largest of the rounds${hasTime ? '' : ' — n/a: no GNU time here'})`,
);
console.log(
  `bare node -e 0: ${bare.ms.toFixed(1)} ms, CPU ${bare.cpu === null ? 'n/a' : bare.cpu.toFixed(1)} ms, peak RSS ${mb(bare.rss)} MiB`,
);
const tables = [
  { family: 'status', unit: 'iterations', per: 1000, perLabel: 'ms per 1,000 more' },
  { family: 'iterate', unit: 'iterations', per: 1000, perLabel: 'ms per 1,000 more' },
  { family: 'brief', unit: 'MiB diff', per: 1, perLabel: 'ms per MiB more' },
];
for (const t of tables) {
  const rows = [
    [
      `${t.family} --json`,
      'median ms',
      '× node -e 0',
      t.perLabel,
      'CPU ms',
      'CPU ×',
      'peak RSS MiB',
      'RSS − bare',
    ],
  ];
  if (t.family === 'brief') rows[0].push('÷ diff size');
  let previous = null;
  for (const c of cases.filter((x) => x.family === t.family)) {
    const marginal = previous && ((c.ms - previous.ms) / (c.size - previous.size)) * t.per;
    previous = c;
    const row = [
      `${c.size.toLocaleString('en-US')} ${t.unit}`,
      c.ms.toFixed(1),
      (c.ms / bare.ms).toFixed(2),
      marginal === null ? '' : marginal.toFixed(2),
      c.cpu === null ? 'n/a' : c.cpu.toFixed(0),
      c.cpu === null || !bare.cpu ? 'n/a' : (c.cpu / bare.cpu).toFixed(2),
      mb(c.rss),
      c.rss === null ? 'n/a' : (c.rss - bare.rss).toFixed(1),
    ];
    if (t.family === 'brief') row.push(c.rss === null ? 'n/a' : `${(c.rss / c.size).toFixed(2)}×`);
    rows.push(row);
  }
  console.log('');
  printTable(rows);
}
const brief20 = cases.find((c) => c.family === 'brief' && c.size === 20);
if (brief20.rss !== null) {
  const ratio = brief20.rss / 20;
  console.log('');
  console.log(
    `brief --json on 20 MiB: peak RSS ${ratio.toFixed(2)}× the diff (aim ≤ 4×: ${ratio <= 4 ? 'met' : 'NOT MET'})`,
  );
}
