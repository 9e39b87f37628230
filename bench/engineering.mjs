// `npm run bench`, loop-engineering part: `validate --strict` of a `.loop.md` contract, `open
// --engineering` and `iterate --spent` on an engineering ledger, as multiples of a bare `node -e 0`
// measured in the same interleaved run (A, B, C, A, B, C…; warm-up rounds dropped). Children run
// without NODE_OPTIONS and NODE_EXTRA_CA_CERTS (see DESIGN.md). A benchmark, not a test: it prints
// what it measured and whether each aim was met, and exits 0 either way (1 when a command fails).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = new URL('../dist/cli.js', import.meta.url).pathname;
const BUDGET_MS = Number(process.env.BENCH_ENGINEERING_BUDGET_MS ?? 30_000);
const WARMUP_ROUNDS = 2;
const env = { ...process.env };
delete env.NODE_OPTIONS;
delete env.NODE_EXTRA_CA_CERTS;

const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-eng-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

function run(args, expect = [0]) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!expect.includes(r.status)) {
    console.error(
      `bench: node ${args.join(' ').slice(0, 300)} exited ${r.status}\n${String(r.stderr).slice(0, 2000)}`,
    );
    process.exit(1);
  }
  return ms;
}

const contract = readFileSync(new URL('../test/fixtures/engineering/valid.loop.md', import.meta.url), 'utf8');
const small = join(work, 'ci.loop.md');
writeFileSync(small, contract);
// A long contract: the 22 fields among 5,000 lines of notes, several fields per line, bold names.
const noteLines = Array.from(
  { length: 5000 },
  (_, i) => `- **Note ${i}**: step ${i} keeps the  Scope: package ${i % 7}`,
);
const big = join(work, 'big.loop.md');
writeFileSync(big, `${contract}\n${noteLines.join('\n')}\n`);

const root = join(work, 'ws');
mkdirSync(root);
run([CLI, 'open', '--root', root, '--session', 'e10', '--engineering', small]);
for (let i = 0; i < 9; i += 1) {
  run([CLI, 'iterate', '--root', root, '--session', 'e10', '--outcome', 'continue', '--spent', 'calls=1']);
  // The max-iterations cap (4) would stop the loop: lift it so the ledger grows to 10 records.
  const ledgerPath = join(root, '.loop', 'ledgers', 'e10.json');
  const ledger = JSON.parse(readFileSync(ledgerPath, 'utf8'));
  ledger.engineering.caps.iterations = 1000;
  ledger.contract.iteration_limit = 1000;
  writeFileSync(ledgerPath, JSON.stringify(ledger, null, 2) + '\n');
}
const saved = join(work, 'e10.json');
copyFileSync(join(root, '.loop', 'ledgers', 'e10.json'), saved);
const restore = () => copyFileSync(saved, join(root, '.loop', 'ledgers', 'e10.json'));

let round = 0;
const cases = [
  { name: 'node -e 0', args: () => ['-e', '0'], bare: true },
  {
    name: 'validate --strict .loop.md',
    args: () => [CLI, 'validate', '--strict', '--json', small],
    aim: 1.3,
  },
  {
    name: 'validate 5,000-line .loop.md',
    args: () => [CLI, 'validate', '--strict', '--json', big],
    aim: 1.6,
  },
  {
    name: 'open --engineering',
    args: () => [CLI, 'open', '--root', root, '--session', `o${round}`, '--engineering', small, '--json'],
    aim: 1.3,
  },
  {
    name: 'iterate --spent @10',
    args: () => [
      CLI,
      'iterate',
      '--root',
      root,
      '--session',
      'e10',
      '--outcome',
      'continue',
      '--spent',
      'calls=1',
      '--spent',
      'tokens=500',
      '--termination',
      'tool_use',
      '--json',
    ],
    prepare: restore,
    aim: 1.3,
  },
];
for (const c of cases) c.times = [];

function runRound(measure) {
  const start = round % cases.length;
  for (let k = 0; k < cases.length; k += 1) {
    const c = cases[(start + k) % cases.length];
    c.prepare?.();
    const ms = run(c.args(), c.expect ?? [0]);
    if (measure) c.times.push(ms);
  }
  round += 1;
}

const warm = Date.now();
for (let i = 0; i < WARMUP_ROUNDS; i += 1) runRound(false);
const perRound = (Date.now() - warm) / WARMUP_ROUNDS;
const rounds = Math.max(10, Math.min(60, Math.floor(BUDGET_MS / perRound)));
for (let i = 0; i < rounds; i += 1) runRound(true);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const bare = median(cases[0].times);
console.log(`Loop Ledger loop-engineering CLI, ${rounds} interleaved rounds (node ${process.version})`);
console.log(`${'case'.padEnd(30)}  median ms  × node -e 0  aim`);
for (const c of cases) {
  const m = median(c.times);
  const ratio = m / bare;
  const aim = c.aim ? `≤ ${c.aim}× ${ratio <= c.aim ? 'met' : 'NOT MET'}` : '';
  console.log(
    `${c.name.padEnd(30)}  ${m.toFixed(1).padStart(9)}  ${(c.bare ? 1 : ratio).toFixed(2).padStart(11)}  ${aim}`,
  );
}
