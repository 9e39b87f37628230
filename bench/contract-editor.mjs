// `npm run bench` (contract editor): what the editor does on the extension host for a huge
// contract. Before, each finding was located with its own findNodeAtLocation walk (quadratic)
// and nothing was capped; now one walk locates every finding, at most 200 become diagnostics,
// and text over the CLI's 1 MiB cap is refused before it is parsed. A large contract is checked
// in a worker thread: the last lines compare the host's event-loop delay inline and in the worker.
// A benchmark, not a test: prints what it measured and exits 0.
import { loadSources } from './bundle.mjs';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';

const repo = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-contract-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const m = await loadSources(
  work,
  'contract-entry',
  `
      export { validateContractText } from './src/app/contract/operations';
      export { locateFindings } from './src/extension/contract/findingSpan';
      export { ContractCheckRunner } from './src/extension/contract/contractCheckRunner';
      export { findNodeAtLocation, parseTree } from 'jsonc-parser';`,
  { format: 'esm', mainFields: ['module', 'main'] },
);

/** A contract of about `bytes` whose every extra top-level key is a finding. */
function contractOf(bytes) {
  const contract = { purpose: 'p' };
  // Each `  "unknown_key_NNNNN": NNNNN,` line is about 30 bytes.
  for (let i = 0; i < bytes / 30; i++) contract[`unknown_key_${i}`] = i;
  return JSON.stringify(contract, null, 2);
}

function ms(fn) {
  const started = process.hrtime.bigint();
  const result = fn();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, result };
}

const oneByOne = (tree, findings) => findings.map((f) => m.findNodeAtLocation(tree, [...f.path]));

console.log('\nContract editor on the extension host:');
for (const size of [256 * 1024, 1000 * 1024]) {
  const text = contractOf(size);
  const validation = ms(() => m.validateContractText('/tmp', text, 'c.loop-contract.json'));
  const findings = validation.result.payload.findings.map((f) => ({ path: f.path, code: f.code ?? 'x' }));
  const tree = m.parseTree(text);
  // The per-finding walks are quadratic: ~8 s at 300 KiB here, minutes at 1 MiB; run them at the small size only.
  const before = size <= 256 * 1024 ? ms(() => oneByOne(tree, findings)) : undefined;
  const after = ms(() => m.locateFindings(tree, findings));
  const capped = ms(() => m.locateFindings(tree, findings.slice(0, 200)));
  console.log(
    `  ${(text.length / 1024).toFixed(0)} KiB, ${findings.length} findings: validate ${validation.ms.toFixed(0)} ms; ` +
      `locate all — ${before ? `per-finding walks ${before.ms.toFixed(0)} ms, ` : ''}one pass ${after.ms.toFixed(1)} ms` +
      `${before ? ` (${(before.ms / after.ms).toFixed(0)}× faster)` : ''}; locate the 200 shown ${capped.ms.toFixed(1)} ms`,
  );
}
const huge = contractOf(5 * 1024 * 1024);
const refused = ms(() => m.validateContractText('/tmp', huge, 'c.loop-contract.json'));
console.log(
  `  ${(huge.length / 1024 / 1024).toFixed(1)} MiB: refused as too large in ${refused.ms.toFixed(1)} ms ` +
    `(${refused.result.findings.length} finding: "${refused.result.findings[0].message.slice(0, 60)}…")`,
);

// The editor's whole check (validate, then locate the findings shown) of a 1000 KiB contract, on
// the host's thread (inline) and in the worker thread, interleaved; what the host's event loop
// saw meanwhile is the measure (the check itself takes as long either way).
const worker = join(repo, 'dist', 'contractCheckWorker.js');
if (!existsSync(worker)) {
  console.log('  (no dist/contractCheckWorker.js: run `npm run build` to measure the worker)');
} else {
  const text = contractOf(1000 * 1024);
  const inline = new m.ContractCheckRunner(undefined);
  const threaded = new m.ContractCheckRunner(worker);
  await threaded.check('/tmp', text, 'warm-up.loop-contract.json'); // start the worker once
  const rounds = { inline: [], worker: [] };
  for (let round = 0; round < 3; round++) {
    for (const [name, runner] of [
      ['inline', inline],
      ['worker', threaded],
    ]) {
      // A timer that wants to run every 5 ms, as the host's own work does; each late run is a
      // stall the window felt. One more turn after the check lets a blocked timer report.
      const gaps = [];
      let last = performance.now();
      const tick = setInterval(() => {
        const now = performance.now();
        gaps.push(now - last);
        last = now;
      }, 5);
      const started = process.hrtime.bigint();
      await runner.check('/tmp', text, 'c.loop-contract.json');
      const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
      await new Promise((done) => setTimeout(done, 20));
      clearInterval(tick);
      gaps.sort((x, y) => x - y);
      const delay = { max: gaps.at(-1) ?? 0, p99: gaps[Math.floor(gaps.length * 0.99)] ?? 0 };
      rounds[name].push({ elapsed, max: delay.max, p99: delay.p99 });
    }
  }
  threaded.dispose();
  const median = (list, key) => list.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(list.length / 2)];
  for (const name of ['inline', 'worker']) {
    const r = rounds[name];
    console.log(
      `  1000 KiB, the editor's whole check ${name === 'inline' ? 'on the host thread' : 'in the worker thread'}: ` +
        `${median(r, 'elapsed').toFixed(0)} ms to the diagnostics; host timer gap p99 ${median(r, 'p99').toFixed(1)} ms, ` +
        `max ${median(r, 'max').toFixed(1)} ms (median of ${r.length})`,
    );
  }
  console.log(
    `  → the host's longest stall: ${(median(rounds.inline, 'max') / median(rounds.worker, 'max')).toFixed(0)}× shorter with the worker`,
  );
}
