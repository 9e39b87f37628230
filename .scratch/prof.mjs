const m = (await import('/tmp/ov2/m.cjs')).default;
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
const path = '/tmp/ov2/big-100000.json';
let t = performance.now(); const b = readFileSync(path); console.log('bytes', (performance.now()-t).toFixed(0));
t = performance.now(); const text = b.toString('utf8'); console.log('decode', (performance.now()-t).toFixed(0));
t = performance.now(); JSON.parse(text); console.log('JSON.parse', (performance.now()-t).toFixed(0));
t = performance.now(); const r = m.readLedgerFile(path); console.log('readLedgerFile', (performance.now()-t).toFixed(0));
