// `npm test`: every tier in order, each streamed to the terminal; each tier ends with a line
// `TIER <name>: N passed, M failed[, K skipped]`. The run ends with one line
// `N passed, M failed, K skipped` over all tiers and exits non-zero when any tier failed or did
// not report. The unit tier builds first unless the static tier (which builds) ran just before.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const only = process.argv.slice(2); // e.g. `npm test -- unit` runs one tier

/** name → command (argv). A tier whose command exits non-zero counts as failed even if it printed counts. */
const tiers = [
  ['static', ['node', 'scripts/static-checks.mjs']],
  [
    'unit',
    ['npx', 'mocha', '--reporter', './scripts/mocha-tier-reporter.cjs', '--reporter-option', 'tier=unit'],
  ],
];
/** Tiers that run compiled output and so need a fresh build when static did not just make one. */
const needsBuild = new Set(['unit']);
if (existsSync('scripts/run-integration.mjs'))
  tiers.push(['integration', ['node', 'scripts/run-integration.mjs']]);
if (existsSync('scripts/run-e2e.mjs')) tiers.push(['e2e', ['node', 'scripts/run-e2e.mjs']]);

function run(name, argv) {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
    let counted = null;
    let tail = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString()).slice(-4096);
      const matches = [...tail.matchAll(/^TIER (\S+): (\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/gm)];
      const last = matches[matches.length - 1];
      if (last) counted = { passed: Number(last[2]), failed: Number(last[3]), skipped: Number(last[4] ?? 0) };
    });
    child.on('close', (code) => {
      if (!counted) {
        console.log(`tier ${name} reported no counts (exit ${code}); counting it as one failure`);
        counted = { passed: 0, failed: 1, skipped: 0 };
      } else if (code !== 0 && counted.failed === 0) {
        console.log(`tier ${name} exited ${code} with no failing test; counting one failure`);
        counted.failed = 1;
      }
      resolve(counted);
    });
  });
}

let passed = 0;
let failed = 0;
let skipped = 0;
let built = false;
for (const [name, argv] of tiers) {
  if (only.length > 0 && !only.includes(name)) continue;
  if (needsBuild.has(name) && !built) {
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
    if (build.status !== 0) {
      console.log(`tier ${name}: the build failed; counting one failure`);
      failed++;
      continue;
    }
  }
  const result = await run(name, argv);
  if (name === 'static') built = true;
  passed += result.passed;
  failed += result.failed;
  skipped += result.skipped;
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);
