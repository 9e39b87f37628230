import { build } from 'esbuild';
import { writeFileSync, statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
const repo = '/work/wt/overview2/';
await build({ stdin: { contents: `
 export { buildOverview } from './src/engine/overview/model';
 export { syntheticLedger } from './test/unit/overview/synthetic-ledger';
 export { serializeLedger, readLedgerFile } from './src/store/ledger-file';
 export { status } from './src/engine/status';`, resolveDir: repo, loader: 'ts' },
 bundle: true, platform: 'node', format: 'cjs', outfile: '/tmp/ov2/m.cjs', logLevel: 'error' });
const m = (await import('/tmp/ov2/m.cjs')).default;
const n = Number(process.argv[2] ?? 100000);
const path = `/tmp/ov2/big-${n}.json`;
let t = performance.now();
const text = m.serializeLedger(m.syntheticLedger(n, `big-${n}`));
writeFileSync(path, text);
console.log('write', (performance.now()-t).toFixed(0), 'ms', (statSync(path).size/1e6).toFixed(1), 'MB');
t = performance.now(); const r = m.readLedgerFile(path); console.log('read', r.kind, (performance.now()-t).toFixed(0));
t = performance.now(); const s = m.status(r.ledger); console.log('status', (performance.now()-t).toFixed(0));
t = performance.now(); const o = m.buildOverview(r.ledger, s.payload, 400); console.log('build', (performance.now()-t).toFixed(0), JSON.stringify(o).length);
t = performance.now(); JSON.parse(r.text); console.log('plain JSON.parse', (performance.now()-t).toFixed(0));
