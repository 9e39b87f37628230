// `npm run bench` (contract editor): what the editor does on the extension host for a huge
// contract. Before, each finding was located with its own findNodeAtLocation walk (quadratic)
// and nothing was capped; now one walk locates every finding, at most 200 become diagnostics,
// and text over the CLI's 1 MiB cap is refused before it is parsed.
// A benchmark, not a test: prints what it measured and exits 0.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const repo = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-contract-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const bundle = join(work, 'contract-entry.mjs');
await build({
  stdin: {
    contents: `
      export { validateContractText } from './src/app/contract-operations';
      export { locateFindings } from './src/extension/contract/findingSpan';
      export { findNodeAtLocation, parseTree } from 'jsonc-parser';`,
    resolveDir: repo,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'esm',
  mainFields: ['module', 'main'],
  outfile: bundle,
  logLevel: 'error',
});
const m = await import(pathToFileURL(bundle).href);

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
