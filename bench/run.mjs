// `npm run bench`: wall time of the CLI as an agent sees it (spawn to exit), as multiples of a
// bare `node -e 0` measured in the same run. Every case runs once per round, round after round
// (A, B, C, A, B, C…), so a noisy moment on the machine hits every case alike; the first rounds
// are a warm-up and are dropped. Children run without NODE_OPTIONS and NODE_EXTRA_CA_CERTS: the
// latter alone adds ~80 ms to every node start here and would hide the CLI's own cost.
//
// A benchmark, not a test: it prints what it measured and whether each aim was met, and exits 0
// either way (non-zero only when a command fails outright).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = new URL('../dist/cli.js', import.meta.url).pathname;
const BUDGET_MS = Number(process.env.BENCH_BUDGET_MS ?? 120_000); // measured rounds; setup adds ~15 s
const WARMUP_ROUNDS = 2;
const MIN_ROUNDS = 10;
const MAX_ROUNDS = 60;

const env = { ...process.env };
delete env.NODE_OPTIONS;
delete env.NODE_EXTRA_CA_CERTS;

const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

function run(args, expect = [0]) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!expect.includes(r.status)) {
    console.error(`bench: node ${args.join(' ').slice(0, 300)} exited ${r.status} ${r.signal ?? ''}`);
    console.error(String(r.stderr).slice(0, 2000));
    process.exit(1);
  }
  return { ms, stdout: r.stdout };
}
const cli = (args, expect) => run([CLI, ...args], expect);

// ---------------------------------------------------------------------------------------------
// Fixtures

const contract = {
  purpose: 'Raise parser test coverage without slowing the build',
  owner: 'parser team',
  starting_state: 'coverage 61%, build 38 s',
  inputs: ['src/parser'],
  expected_outputs: ['tests covering the parser'],
  success_criteria: ['coverage >= 80%'],
  failure_criteria: ['an existing test fails'],
  dependencies: ['node'],
  iteration_limit: 1_000_000,
  timeout_behaviour: 'record pause and stop',
  escalation_path: 'open an issue for the parser team',
  quality_rubric: [
    {
      dimension: 'coverage',
      evidence_command: 'echo 61',
      baseline: 61,
      target: 80,
      weight: 70,
      failure_threshold: 55,
      direction: 'higher-is-better',
      hard_gate: true,
    },
    {
      dimension: 'build-seconds',
      evidence_command: 'ls -1 | wc -l',
      baseline: 38,
      target: 30,
      weight: 30,
      failure_threshold: 45,
      direction: 'lower-is-better',
      hard_gate: false,
    },
  ],
};

/**
 * A git diff shaped like a real one, deterministic: modified, added, deleted and renamed files
 * across nested folders, index lines, several hunks each with context, removals and additions.
 */
function realisticDiff(bytes) {
  let seed = 12345;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const words = ['value', 'result', 'token', 'parser', 'node', 'scope', 'index', 'buffer', 'state', 'error'];
  const line = () =>
    `  ${'  '.repeat(rand(3))}const ${words[rand(10)]}${rand(100)} = ${words[rand(10)]}.${words[rand(10)]}(${rand(1000)}, '${words[rand(10)]}');`;
  const hex = () => rand(0x7fffffff).toString(16).padStart(8, '0').slice(0, 7);
  const parts = [];
  let size = 0;
  for (let file = 0; size < bytes; file += 1) {
    const path = `packages/pkg${file % 23}/src/${words[file % 10]}/${words[(file * 7) % 10]}-${file}.ts`;
    const kind =
      file % 20 === 0 ? 'new' : file % 29 === 0 ? 'deleted' : file % 31 === 0 ? 'renamed' : 'modified';
    let text;
    if (kind === 'new') {
      text = `diff --git a/${path} b/${path}\nnew file mode 100644\nindex 0000000..${hex()}\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,12 @@\n`;
      for (let i = 0; i < 12; i += 1) text += `+${line()}\n`;
    } else if (kind === 'deleted') {
      text = `diff --git a/${path} b/${path}\ndeleted file mode 100644\nindex ${hex()}..0000000\n--- a/${path}\n+++ /dev/null\n@@ -1,8 +0,0 @@\n`;
      for (let i = 0; i < 8; i += 1) text += `-${line()}\n`;
    } else {
      const from = kind === 'renamed' ? path.replace('/src/', '/lib/') : path;
      text = `diff --git a/${from} b/${path}\n`;
      if (kind === 'renamed') text += `similarity index 91%\nrename from ${from}\nrename to ${path}\n`;
      text += `index ${hex()}..${hex()} 100644\n--- a/${from}\n+++ b/${path}\n`;
      for (let hunk = 0, at = 1 + rand(40); hunk < 1 + rand(5); hunk += 1, at += 30 + rand(200)) {
        text += `@@ -${at},7 +${at},8 @@ export function ${words[rand(10)]}${hunk}() {\n`;
        text += ` ${line()}\n ${line()}\n ${line()}\n-${line()}\n+${line()}\n+${line()}\n ${line()}\n ${line()}\n`;
      }
    }
    parts.push(text);
    size += text.length;
  }
  return parts.join('');
}

const setupStarted = Date.now();
const contractPath = join(work, 'contract.json');
writeFileSync(contractPath, JSON.stringify(contract, null, 2) + '\n');
const verification = join(work, 'verification.txt');
writeFileSync(verification, 'npm test\n  412 passing (9s)\ncoverage: 66.2%\nbuild: 36.4 s\n');
const smallDiff = join(work, 'small.diff');
writeFileSync(smallDiff, realisticDiff(6 * 1024));
const bigDiff = join(work, 'big.diff');
writeFileSync(bigDiff, realisticDiff(20 * 1024 * 1024));

const root = join(work, 'ws'); // list, status, score, resume, brief, close, iterate@10
const openRoot = join(work, 'ws-open'); // a fresh session per open
const rootK = join(work, 'ws-1k');
const root10K = join(work, 'ws-10k');
for (const dir of [root, openRoot, rootK, root10K]) mkdirSync(dir);
const ledgerFile = (at, session) => join(at, '.loop', 'ledgers', `${session}.json`);

// A 10-iteration ledger made by the CLI itself: measured and unmeasured records, notes, files.
cli(['open', '--root', root, '--session', 's10', '--contract', contractPath]);
for (let i = 1; i <= 10; i += 1) {
  const measured =
    i % 3 === 0 ? ['--measure', `coverage=${61 + i}`, '--measure', `build-seconds=${38 - i / 2}`] : [];
  cli([
    'iterate',
    '--root',
    root,
    '--session',
    's10',
    '--outcome',
    'continue',
    '--action',
    `step-${i}`,
    '--files-changed',
    `src/parser/part${i}.ts`,
    '--command-run',
    'npm test',
    '--note',
    `iteration ${i} of the parser work`,
    ...measured,
  ]);
}
const base10 = readFileSync(ledgerFile(root, 's10'), 'utf8');

/** A ledger of `count` records in the CLI's own format: the real records, cloned with new n and actions. */
function ledgerOf(count, session) {
  const ledger = JSON.parse(base10);
  const records = ledger.iterations;
  const iterations = [];
  for (let n = 1; n <= count; n += 1) {
    const record = { ...records[(n - 1) % records.length], n, actions: [`step-${n}`] };
    iterations.push(record);
  }
  return (
    JSON.stringify(
      { ...ledger, session, iterations, completed_actions: iterations.map((r) => r.actions[0]) },
      null,
      2,
    ) + '\n'
  );
}

/** Writes the ledger, lets the CLI rewrite it once (so it is byte-for-byte its own layout), keeps that text. */
function prepared(at, session, count) {
  mkdirSync(join(at, '.loop', 'ledgers'), { recursive: true });
  writeFileSync(ledgerFile(at, session), ledgerOf(count - 1, session));
  cli(['iterate', '--root', at, '--session', session, '--outcome', 'continue', '--action', `step-${count}`]);
  const text = readFileSync(ledgerFile(at, session), 'utf8');
  if (JSON.parse(text).iterations.length !== count) throw new Error(`prepared ${session} badly`);
  const saved = join(work, `${session}.base.json`);
  writeFileSync(saved, text);
  return () => copyFileSync(saved, ledgerFile(at, session));
}

const restore10 = prepared(root, 'i10', 10);
const restoreClose = prepared(root, 'c10', 10);
const restoreK = prepared(rootK, 'i1k', 1_000);
const restore10K = prepared(root10K, 'i10k', 10_000);
const restoreBrief = prepared(root, 'b20', 10);
const setupMs = Date.now() - setupStarted;

// ---------------------------------------------------------------------------------------------
// Cases: `prepare` runs untimed before each timed run.

let round = 0;
const session = (s) => ['--root', root, '--session', s, '--json'];
const cases = [
  { name: 'node -e 0', args: ['-e', '0'], bare: true },
  { name: 'status @10', args: [CLI, 'status', ...session('s10')], aim: 1.3 },
  {
    name: 'iterate @10',
    args: () => [CLI, 'iterate', ...session('i10'), '--outcome', 'continue', '--action', `r${round}`],
    prepare: restore10,
    aim: 1.3,
  },
  {
    name: 'open (new session)',
    args: () => [
      CLI,
      'open',
      '--root',
      openRoot,
      '--session',
      `o${round}`,
      '--contract',
      contractPath,
      '--json',
    ],
    aim: 1.3,
  },
  {
    name: 'score @10',
    args: [CLI, 'score', ...session('s10'), '--measure', 'coverage=70', '--measure', 'build-seconds=33'],
    aim: 1.3,
  },
  { name: 'resume @10', args: [CLI, 'resume', ...session('s10')], aim: 1.3 },
  {
    name: 'close @10',
    args: [CLI, 'close', ...session('c10'), '--outcome', 'stop', '--note', 'bench'],
    prepare: restoreClose,
    aim: 1.3,
  },
  {
    name: 'brief small @10',
    args: [CLI, 'brief', ...session('s10'), '--diff-file', smallDiff, '--verification-file', verification],
    aim: 1.3,
  },
  { name: 'validate', args: [CLI, 'validate', '--root', root, contractPath, '--json'], aim: 1.3 },
  { name: 'list (5 sessions)', args: [CLI, 'list', '--root', root, '--json'], aim: 1.3 },
  {
    name: 'iterate @1,000',
    args: () => [
      CLI,
      'iterate',
      '--root',
      rootK,
      '--session',
      'i1k',
      '--json',
      '--outcome',
      'continue',
      '--action',
      `r${round}`,
    ],
    prepare: restoreK,
  },
  {
    name: 'iterate @10,000',
    args: () => [
      CLI,
      'iterate',
      '--root',
      root10K,
      '--session',
      'i10k',
      '--json',
      '--outcome',
      'continue',
      '--action',
      `r${round}`,
    ],
    prepare: restore10K,
    aim: 3.5,
  },
  {
    name: 'brief 20 MB diff',
    args: [CLI, 'brief', ...session('b20'), '--diff-file', bigDiff, '--verification-file', verification],
    prepare: restoreBrief,
    aim: 6,
  },
  // The same brief without --json: one summary line instead of the packet, to show what printing costs.
  {
    name: 'brief 20 MB, no --json',
    args: [
      CLI,
      'brief',
      '--root',
      root,
      '--session',
      'b20',
      '--diff-file',
      bigDiff,
      '--verification-file',
      verification,
    ],
    prepare: restoreBrief,
  },
];
for (const c of cases) c.times = [];

function runRound(measure) {
  // Rotate the starting case so no case always runs right after the same neighbour.
  const start = round % cases.length;
  for (let k = 0; k < cases.length; k += 1) {
    const c = cases[(start + k) % cases.length];
    c.prepare?.();
    const { ms } = run(typeof c.args === 'function' ? c.args() : c.args);
    if (measure) c.times.push(ms);
  }
  round += 1;
}

const warmStarted = Date.now();
for (let i = 0; i < WARMUP_ROUNDS; i += 1) runRound(false);
const perRound = (Date.now() - warmStarted) / WARMUP_ROUNDS;
const rounds = Math.max(MIN_ROUNDS, Math.min(MAX_ROUNDS, Math.floor(BUDGET_MS / perRound)));
process.stderr.write(
  `bench: setup ${(setupMs / 1000).toFixed(1)} s; ${rounds} rounds of ${cases.length} cases (~${(perRound / 1000).toFixed(1)} s each)\n`,
);
for (let i = 0; i < rounds; i += 1) runRound(true);

// ---------------------------------------------------------------------------------------------
// Report

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
for (const c of cases) {
  const sorted = [...c.times].sort((a, b) => a - b);
  c.median =
    sorted.length % 2
      ? sorted[(sorted.length - 1) / 2]
      : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  c.p90 = quantile(sorted, 0.9);
}
const bare = cases[0].median;
const byName = Object.fromEntries(cases.map((c) => [c.name, c]));

const rows = [['case', 'median ms', 'p90 ms', '× node -e 0', 'aim', 'met']];
for (const c of cases) {
  const ratio = c.median / bare;
  rows.push([
    c.name,
    c.median.toFixed(1),
    c.p90.toFixed(1),
    c.bare ? '1.00' : ratio.toFixed(2),
    c.aim ? `≤ ${c.aim}×` : '',
    c.aim ? (ratio <= c.aim ? 'met' : 'NOT MET') : '',
  ]);
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
const fmt = (r) =>
  r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
console.log(
  `Loop Ledger CLI, ${rounds} interleaved rounds on this machine (node ${process.version}, children without NODE_OPTIONS/NODE_EXTRA_CA_CERTS)`,
);
console.log(fmt(rows[0]));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of rows.slice(1)) console.log(fmt(r));

const it10 = byName['iterate @10'].median;
console.log('');
console.log('iterate growth (median / median of iterate @10):');
console.log(`  @1,000   ${(byName['iterate @1,000'].median / it10).toFixed(2)}×`);
console.log(`  @10,000  ${(byName['iterate @10,000'].median / it10).toFixed(2)}×`);
const small = cases.filter((c) => c.aim === 1.3);
const worst = small.reduce((a, b) => (a.median > b.median ? a : b));
const met = cases.filter((c) => c.aim && c.median / bare <= c.aim).length;
console.log('');
console.log(
  `aims met: ${met} of ${cases.filter((c) => c.aim).length}; slowest 10-iteration command: ${worst.name} ${(worst.median / bare).toFixed(2)}×` +
    ` (+${(worst.median - bare).toFixed(1)} ms over a bare node start of ${bare.toFixed(1)} ms)`,
);
console.log(
  'every CLI case runs with --json (as agents call it); "brief 20 MB diff" so includes printing the ~20 MB packet to a pipe.',
);
