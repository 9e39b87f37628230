// The static tier: build, type check, lint, formatting, unused code. Each is one "test" in the
// total, timed.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const checks = [
  // Before the build, which regenerates them: the committed schema must match the zod schema,
  // and the committed WebAssembly modules their text source.
  ['schemas/contract.schema.json is up to date', ['node', 'scripts/generate-schema.mjs', '--check']],
  ['the WebAssembly modules are up to date', ['node', 'scripts/generate-wasm.mjs', '--check']],
  ['build', ['node', 'scripts/build.mjs']],
  ['tsc --noEmit', ['npx', 'tsc', '--noEmit', '-p', '.']],
  ['eslint', ['npx', 'eslint', '.']],
  ['prettier --check', ['npx', 'prettier', '--check', '.']],
  ['every declared command is registered', ['node', 'scripts/check-commands.mjs']],
  // Unused files, exports and dependencies (knip.jsonc says what it cannot see); it prints each
  // finding and exits non-zero.
  ['knip: no unused files, exports or dependencies', ['npx', 'knip', '--no-progress']],
];
let passed = 0;
let failed = 0;
for (const [name, argv] of checks) {
  const started = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { stdio: 'inherit' });
  const took = `${((performance.now() - started) / 1000).toFixed(1)} s`;
  if (r.status === 0) {
    passed++;
    console.log(`  ✔ ${name} (${took})`);
  } else {
    failed++;
    console.log(`  ✖ ${name} (exit ${r.status}, ${took})`);
  }
}
console.log(`TIER static: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
