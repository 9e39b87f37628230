// `npm run bench:pieces`: what each hand-written fast path saves in the command it serves. Each
// command runs twice per round, as built and with the piece replaced by the plain library call
// it stands in for (LOOP_LEDGER_BENCH_PLAIN, which only this script sets: src/engine/plain-pieces.ts
// and the launcher read it), interleaved round after round with a bare `node -e 0`. A piece that
// saves under 2% of its command does not earn its place: the plain call should replace it.
//
// A hand-written `toISOString` went back to the library call: counted with `valgrind
// --tool=callgrind` on the real CLI (`status` and `iterate` at 10 iterations, `node
// --predictable`) it saved ~0.01% of the instructions. The flag tokenizer, counted the same way,
// saves 2.8% / 2.7% (parseArgs is compiled from Node's sources on first use): it keeps its place,
// and its rows here time it.
//
// A benchmark, not a test: it prints what it measured and exits 0.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLI,
  contract,
  makeBaseLedger,
  mean,
  median,
  prepared as preparedIn,
  preparedOriginal,
  printTable,
  realisticDiff,
  run,
} from './fixtures.mjs';

const ROUNDS = Number(process.env.BENCH_PIECES_ROUNDS ?? 15);
const WARMUP = 2;
const work = mkdtempSync(join(tmpdir(), 'loop-ledger-pieces-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

const contractPath = join(work, 'contract.json');
writeFileSync(contractPath, JSON.stringify(contract, null, 2) + '\n');
const verification = join(work, 'verification.txt');
writeFileSync(verification, 'npm test\n  412 passing (9s)\ncoverage: 66.2%\nbuild: 36.4 s\n');
const smallDiff = join(work, 'small.diff');
writeFileSync(smallDiff, realisticDiff(6 * 1024));
const bigDiff = join(work, 'big.diff');
writeFileSync(bigDiff, realisticDiff(20 * 1024 * 1024));
const root = join(work, 'ws');
const root10K = join(work, 'ws-10k');
mkdirSync(root);
mkdirSync(root10K);
const base10 = makeBaseLedger(root, contractPath);
const restore10K = preparedIn(base10, work, root10K, 'i10k', 10_000);
const firstRoot = join(work, 'ws-first'); // ledgers the original engine wrote, put back before each run
mkdirSync(firstRoot);
const restoreFirstK = preparedOriginal(base10, work, firstRoot, 'f1k', 1_000);
const restoreFirst10K = preparedOriginal(base10, work, firstRoot, 'f10k', 10_000);

let round = 0;
let calls = 0;
const at = (r, s) => ['--root', r, '--session', s];
/** [piece, command name, args, prepare]: the command as built, and with the piece switched off. */
const served = [
  ['code-cache', 'status @10', () => [CLI, 'status', ...at(root, 's10'), '--json']],
  ['flag-tokenizer', 'status @10', () => [CLI, 'status', ...at(root, 's10'), '--json']],
  [
    'flag-tokenizer',
    'iterate @10 (growing)',
    () => [
      CLI,
      'iterate',
      ...at(root, 's10'),
      '--json',
      '--outcome',
      'continue',
      '--action',
      `t${(calls += 1)}`,
    ],
  ],
  [
    'sha-tiers',
    'brief small @10',
    () => [CLI, 'brief', ...at(root, 's10'), '--diff-file', smallDiff, '--verification-file', verification],
  ],
  [
    'diff-wasm',
    'brief (human), 20 MiB diff',
    () => [CLI, 'brief', ...at(root, 's10'), '--diff-file', bigDiff, '--verification-file', verification],
  ],
  ['seal', 'status @10,000', () => [CLI, 'status', ...at(root10K, 'i10k'), '--json'], restore10K],
  [
    'seal',
    'iterate @10,000',
    () => [
      CLI,
      'iterate',
      ...at(root10K, 'i10k'),
      '--json',
      '--outcome',
      'continue',
      '--action',
      `r${round}`,
    ],
    restore10K,
  ],
  [
    'keys-wasm',
    'status @1,000, first touch',
    () => [CLI, 'status', ...at(firstRoot, 'f1k'), '--json'],
    restoreFirstK,
  ],
  [
    'keys-wasm',
    'iterate @1,000, first touch',
    () => [
      CLI,
      'iterate',
      ...at(firstRoot, 'f1k'),
      '--json',
      '--outcome',
      'continue',
      '--action',
      `r${round}`,
    ],
    restoreFirstK,
  ],
  [
    'shape-compiled',
    'status @1,000, first touch',
    () => [CLI, 'status', ...at(firstRoot, 'f1k'), '--json'],
    restoreFirstK,
  ],
  [
    'shape-compiled',
    'status @10,000, first touch',
    () => [CLI, 'status', ...at(firstRoot, 'f10k'), '--json'],
    restoreFirst10K,
  ],
  [
    'keys-wasm',
    'status @10,000, first touch',
    () => [CLI, 'status', ...at(firstRoot, 'f10k'), '--json'],
    restoreFirst10K,
  ],
];
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const cases = [{ name: 'node -e 0', args: () => ['-e', '0'] }];
for (const [piece, command, args, prepare] of served) {
  if (only !== null && !only.test(`${piece} ${command}`)) continue;
  cases.push({ piece, command, args, prepare, as: 'built' });
  cases.push({ piece, command, args, prepare, as: 'plain', extraEnv: { LOOP_LEDGER_BENCH_PLAIN: piece } });
}
for (const c of cases) {
  c.times = [];
  c.cpu = [];
}
for (let r = 0; r < WARMUP + ROUNDS; r += 1) {
  for (let k = 0; k < cases.length; k += 1) {
    const c = cases[(k + r) % cases.length];
    c.prepare?.();
    const { ms, cpuMs } = run(c.args(), [0], { extraEnv: c.extraEnv });
    if (r >= WARMUP) {
      c.times.push(ms);
      if (cpuMs !== null) c.cpu.push(cpuMs);
    }
  }
  round += 1;
}

const bare = median(cases[0].times);
const rows = [
  ['piece', 'command', 'built ms', 'plain ms', 'saves ms', 'saves %', 'CPU saves %', 'keeps its place'],
];
for (let i = 1; i < cases.length; i += 2) {
  const built = cases[i];
  const plain = cases[i + 1];
  const b = median(built.times);
  const p = median(plain.times);
  const cpuShare = built.cpu.length > 0 ? (mean(plain.cpu) - mean(built.cpu)) / mean(plain.cpu) : null;
  const share = (p - b) / p;
  rows.push([
    built.piece,
    built.command,
    b.toFixed(1),
    p.toFixed(1),
    (p - b).toFixed(1),
    `${(share * 100).toFixed(1)}%`,
    cpuShare === null ? 'n/a' : `${(cpuShare * 100).toFixed(1)}%`,
    share >= 0.02 ? 'yes' : 'NO (under 2%)',
  ]);
}

console.log(
  `Hand-written fast paths, ${ROUNDS} interleaved rounds (node ${process.version}; node -e 0 ${bare.toFixed(1)} ms; load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`,
);
printTable(rows);
console.log('');
console.log(
  'saves % = (plain − built) / plain, of wall-time medians; CPU saves % the same of the children’s mean CPU time (steadier on a busy machine).',
);
