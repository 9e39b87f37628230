// The static tier: build, type check, lint, formatting. Each is one "test" in the total.
import { spawnSync } from 'node:child_process';

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
];
let passed = 0;
let failed = 0;
for (const [name, argv] of checks) {
  const r = spawnSync(argv[0], argv.slice(1), { stdio: 'inherit' });
  if (r.status === 0) {
    passed++;
    console.log(`  ✔ ${name}`);
  } else {
    failed++;
    console.log(`  ✖ ${name} (exit ${r.status})`);
  }
}
console.log(`TIER static: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
