// `npm run bench` (PostgreSQL part): the PostgreSQL store beside the file store in the same run.
// `status` and `iterate` as CLI processes on ledgers of 10, 10,000 and 100,000 iterations (the
// long ones made by `store import` of a generated ledger, not by 100,000 iterates), and write
// throughput with 32 concurrent writers on one session and on 32 sessions. Times are medians;
// the PostgreSQL column is shown as a multiple of the file store's (below 1: faster).
//
// It starts a throwaway cluster of its own with the unit tests' helper (built into out/ by
// `npm run build`), so PostgreSQL's binaries must be installed (scripts/setup.sh).
// BENCH_PG_ROUNDS sets the rounds (default 3); BENCH_PG_PER_WRITER the CLI iterates each of the
// 32 writers runs in a row (default 4). A benchmark, not a test: it exits 0 unless a command fails.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, cli, contract, env, makeBaseLedger, median, prepared, printTable } from './fixtures.mjs';

const ROUNDS = Math.max(1, Number(process.env.BENCH_PG_ROUNDS ?? 3));
const PER_WRITER = Math.max(1, Number(process.env.BENCH_PG_PER_WRITER ?? 4));
const WRITERS = 32;
const SIZES = [10, 10_000, 100_000];

const require = createRequire(import.meta.url);
const helper = new URL('../out/test/unit/helpers/pg-cluster.js', import.meta.url).pathname;
const { startCluster } = require(helper);

const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-pg-'));
let cluster;
process.on('exit', () => {
  cluster?.destroy();
  rmSync(work, { recursive: true, force: true });
});

/**
 * Runs the CLI as a child process; resolves with its wall time (ms), or null after an exit in
 * `soft` (the caller retries). Fails the bench on any other exit but 0.
 */
function timed(args, soft = []) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (soft.includes(code)) return resolve(null);
      if (code !== 0) {
        console.error(
          `bench pg-store: ${args.join(' ').slice(0, 300)} exited ${code}\n${stderr.slice(0, 2000)}`,
        );
        process.exit(1);
      }
      resolve(ms);
    });
  });
}

const setupStarted = Date.now();
cluster = await startCluster();
const store = ['--store', cluster.url];
const contractPath = join(work, 'contract.json');
writeFileSync(contractPath, JSON.stringify({ ...contract, iteration_limit: 1_000_000 }, null, 2) + '\n');
const baseRoot = join(work, 'base');
mkdirSync(baseRoot);
const base10 = makeBaseLedger(baseRoot, contractPath);
cli(['store', 'migrate', '--root', baseRoot, ...store]);

// One root per size, holding that one ledger: the file store reads it there, and `store import`
// copies it into the database under the project `bench`.
const sizes = [];
for (const count of SIZES) {
  const session = `n${count}`;
  const root = join(work, `files-${count}`);
  const restore = prepared(base10, work, root, session, count);
  cli(['store', 'import', '--root', root, '--project', 'bench', ...store]);
  sizes.push({ count, session, root, restore });
}
process.stderr.write(`bench pg-store: setup ${((Date.now() - setupStarted) / 1000).toFixed(1)} s\n`);

const single = { status: { files: [], pg: [] }, iterate: { files: [], pg: [] } };
for (const s of sizes)
  for (const family of Object.keys(single)) single[family][s.count] = { files: [], pg: [] };
for (let round = 0; round < ROUNDS; round += 1) {
  for (const s of sizes) {
    const at = ['--root', s.root, '--session', s.session, '--json'];
    const onPg = ['--project', 'bench', ...store];
    single.status[s.count].files.push(await timed(['status', ...at]));
    single.status[s.count].pg.push(await timed(['status', ...at, ...onPg]));
    // The file ledger is put back before each run; the database keeps each round's one new record.
    s.restore();
    const step = ['iterate', ...at, '--outcome', 'continue', '--action', `bench-${round}`];
    single.iterate[s.count].files.push(await timed(step));
    single.iterate[s.count].pg.push(await timed([...step, ...onPg]));
  }
}

console.log('');
console.log(`PostgreSQL store beside the file store, ${ROUNDS} rounds (median wall ms of one CLI process)`);
for (const family of ['status', 'iterate']) {
  const rows = [[`${family} --json`, 'files ms', 'PostgreSQL ms', 'PostgreSQL ÷ files']];
  for (const s of sizes) {
    const files = median(single[family][s.count].files);
    const pg = median(single[family][s.count].pg);
    rows.push([
      `${s.count.toLocaleString('en')} iterations`,
      files.toFixed(1),
      pg.toFixed(1),
      (pg / files).toFixed(2),
    ]);
  }
  console.log('');
  printTable(rows);
}

/**
 * 32 writers at once, each running PER_WRITER CLI iterates in a row into `sessionOf(w)`:
 * iterations per second over the whole run, and how many attempts found the session busy. The
 * file store waits up to 2 s for a ledger's lock and then refuses with exit 3; a writer then
 * sends the same iterate again, as an agent would.
 */
async function throughput(label, root, sessionOf, onPg) {
  const sessions = [...new Set(Array.from({ length: WRITERS }, (_, w) => sessionOf(w)))];
  for (const session of sessions)
    await timed(['open', '--root', root, '--session', session, '--contract', contractPath, ...onPg]);
  let busy = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; i < PER_WRITER; i += 1) {
        const args = [
          'iterate',
          '--root',
          root,
          '--session',
          sessionOf(w),
          '--outcome',
          'continue',
          '--action',
          `${label}-w${w}-i${i}`,
          ...onPg,
        ];
        while ((await timed(args, [3])) === null) busy += 1;
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  return { perSecond: (WRITERS * PER_WRITER) / seconds, busy };
}

const rows = [
  [
    '32 concurrent writers (CLI processes)',
    'files it/s',
    'busy',
    'PostgreSQL it/s',
    'busy',
    'PostgreSQL ÷ files',
  ],
];
for (const [name, sessionOf] of [
  ['one session', () => 'shared'],
  ['32 sessions', (w) => `own-${w}`],
]) {
  const tag = name.replace(/\W+/g, '');
  const filesRoot = join(work, `tp-files-${tag}`);
  const pgRoot = join(work, `tp-pg-${tag}`);
  const files = await throughput(`${tag}f`, filesRoot, sessionOf, []);
  const pg = await throughput(`${tag}p`, pgRoot, sessionOf, ['--project', `tp-${tag}`, ...store]);
  rows.push([
    name,
    files.perSecond.toFixed(1),
    files.busy,
    pg.perSecond.toFixed(1),
    pg.busy,
    (pg.perSecond / files.perSecond).toFixed(2),
  ]);
}
console.log('');
console.log(
  `Throughput: ${WRITERS} writers × ${PER_WRITER} iterates each, all at once (busy: attempts refused with exit 3 and sent again)`,
);
printTable(rows);
