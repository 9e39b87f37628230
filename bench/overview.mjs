// `node bench/overview.mjs`: the session overview's host work — building the model (every series
// downsampled per pixel bucket) from an already parsed ledger of 100, 10,000 and 100,000
// iterations, and the size of the message it posts. Parsing the ledger is the Sessions tree's
// (bench/tree.mjs). A benchmark, not a test: prints what it measured and exits 0.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const repo = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-overview-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const bundle = join(work, 'overview-entry.mjs');
await build({
  stdin: {
    contents: `
      export { buildOverview } from './src/engine/overview/model';
      export { syntheticLedger } from './test/unit/overview/synthetic-ledger';`,
    resolveDir: repo,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: bundle,
  logLevel: 'error',
});
const { buildOverview, syntheticLedger } = await import(pathToFileURL(bundle).href);

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const rows = [];
for (const count of [100, 10_000, 100_000]) {
  const ledger = syntheticLedger(count);
  buildOverview(ledger, null, 400); // warm-up
  const times = [];
  let bytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    const model = buildOverview(ledger, null, 400);
    times.push(performance.now() - t0);
    bytes = JSON.stringify(model).length;
  }
  times.sort((a, b) => a - b);
  rows.push({
    iterations: count,
    'median ms': times[Math.floor(times.length / 2)].toFixed(2),
    'max ms': times[times.length - 1].toFixed(2),
    'message KB': (bytes / 1024).toFixed(1),
  });
}
console.table(rows);
