// `node bench/pg-live.mjs [N]`: how soon a reader hears of another writer's write. PostgreSQL:
// a writer (its own connection, as another machine would have) records an iteration; the
// extension's LISTEN follower reports the session. Baseline in the same run: the file store's
// writer records an iteration in a ledger file and a file watcher (fs.watch on .loop/ledgers,
// what VS Code's watcher is built on) reports the change. Times are from the write's call and
// from its return to the reader's event (PostgreSQL's "from the call" includes connecting, as a
// CLI command does; "from its return" may be below zero: the notification can beat the reply). The extension then adds its own re-read (both stores)
// and, for files only, a 75 ms debounce. A throwaway cluster is started and removed.
// A benchmark, not a test: prints what it measured and exits 0.
import { loadSources } from './bundle.mjs';
import { watch } from 'node:fs';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';

const N = Number(process.argv[2] ?? 60);
const repo = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-pglive-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

const m = await loadSources(
  work,
  'entry',
  `
      export { startCluster } from './test/unit/helpers/pg-cluster';
      export { createPgStore } from './src/app/ledger/pg-store';
      export { openLiveStore } from './src/app/ledger/pg-live';
      export { openOp } from './src/app/contract/operations';
      export { iterateOp } from './src/app/ledger/operations';`,
  {
    format: 'esm',
    external: ['pg-native'],
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  },
);
// The fixture contract with room for every write (its own limit is 5 iterations).
const contract = join(work, 'bench.loop-contract.json');
const fixture = JSON.parse(
  readFileSync(join(repo, 'test', 'fixtures', 'contracts', 'valid.loop-contract.json'), 'utf8'),
);
writeFileSync(contract, JSON.stringify({ ...fixture, iteration_limit: 100_000 }));
const input = (i) => ({
  outcome: 'continue',
  actions: [`a${i}`],
  measures: [],
  evidencePaths: [],
  now: new Date(),
});

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { median: at(0.5), p95: at(0.95), max: s[s.length - 1] };
};
const fmt = (x) => `${x.toFixed(2)} ms`;

/** Runs N writes; `write` resolves when the writer is done, `heard` when the reader reported it. */
async function measure(write, heard) {
  const fromCall = [];
  const fromReturn = [];
  for (let i = 0; i < N; i += 1) {
    const reported = heard();
    const t0 = performance.now();
    const cleanup = await write(i);
    const t1 = performance.now();
    const t2 = await reported;
    await cleanup?.();
    fromCall.push(t2 - t0);
    fromReturn.push(t2 - t1);
    await new Promise((r) => setTimeout(r, 5));
  }
  return { fromCall: stats(fromCall), fromReturn: stats(fromReturn) };
}

// PostgreSQL
const cluster = await m.startCluster();
let pg;
try {
  const root = join(work, 'pgroot');
  const selection = { url: cluster.url, project: 'bench', root, retryMs: 5000 };
  const admin = m.createPgStore({ ...selection, requestId: 'bench-migrate' });
  await admin.migrate();
  const o = await admin.open('s1', { contractPath: contract, stallThreshold: 100_000, now: new Date() });
  if (o.exitCode !== 0) throw new Error(JSON.stringify(o.findings));
  await admin.end();
  const live = m.openLiveStore({ url: cluster.url, project: 'bench', retryMs: 5000 });
  for (const s of await live.readAll()) live.follower.seen(s.session, s.seq);
  live.follower.start();
  await new Promise((resolve) => {
    const off = live.follower.onState((s) => s.state === 'connected' && (off(), resolve()));
    if (live.follower.status.state === 'connected') resolve();
  });
  let requests = 0;
  pg = await measure(
    async (i) => {
      // Each write its own request id and connection, as each CLI command of an agent has.
      const one = m.createPgStore({ ...selection, requestId: `bench-${requests++}` });
      const r = await one.iterate('s1', input(i));
      if (r.exitCode !== 0) throw new Error(JSON.stringify(r.findings));
      return () => one.end();
    },
    () =>
      new Promise((resolve) => {
        const off = live.follower.onChanged(() => (off(), resolve(performance.now())));
      }),
  );
  await live.close();
} finally {
  cluster.destroy();
}

// File store baseline: the same iterate through the file store, heard by fs.watch.
const root = join(work, 'fileroot');
const opened = m.openOp(root, 's1', { contractPath: contract, stallThreshold: 100_000, now: new Date() });
if (opened.exitCode !== 0) throw new Error(JSON.stringify(opened.findings));
const dir = join(root, '.loop', 'ledgers');
let waiting;
const watcher = watch(dir, (_event, name) => {
  if (name === 's1.json' && waiting) {
    const w = waiting;
    waiting = undefined;
    w(performance.now());
  }
});
const file = await measure(
  async (i) => {
    const r = m.iterateOp(root, 's1', input(i));
    if (r.exitCode !== 0) throw new Error(JSON.stringify(r.findings));
  },
  () => new Promise((resolve) => (waiting = resolve)),
);
watcher.close();

console.log(`write → reader's event, ${N} writes each (same run)`);
for (const [name, r] of [
  ['PostgreSQL LISTEN follower', pg],
  ['file store, fs.watch (baseline)', file],
]) {
  console.log(
    `  ${name.padEnd(32)} from the write's call: median ${fmt(r.fromCall.median)}, p95 ${fmt(r.fromCall.p95)}; from its return: median ${fmt(r.fromReturn.median)}, p95 ${fmt(r.fromReturn.p95)}`,
  );
}
console.log(
  `  ratio PostgreSQL / files (median from the call): ${(pg.fromCall.median / file.fromCall.median).toFixed(2)}×; the extension adds a 75 ms debounce to file events and none to the follower's`,
);
