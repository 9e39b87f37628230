// Writes schemas/contract.schema.json from the engine's zod contract schema (through
// src/engine/contract/json-schema.ts, bundled in memory by esbuild: Node cannot import the
// TypeScript source directly), and schemas/loop-engineering.schema.json from the
// loop-engineering contract's (src/engine/engineering/json-schema.ts). scripts/build.mjs runs
// it, so every build ships fresh schemas.
//   node scripts/generate-schema.mjs          write the file when it differs
//   node scripts/generate-schema.mjs --check  exit 1 when the committed file differs (writes nothing)
import * as esbuild from 'esbuild';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const schemaPath = join(root, 'schemas', 'contract.schema.json');

/** Every generated schema: its file, the module that generates it and the function it calls. */
const SCHEMAS = [
  { path: schemaPath, entry: 'src/engine/contract/json-schema.ts', fn: 'contractJsonSchemaText' },
  {
    path: join(root, 'schemas', 'loop-engineering.schema.json'),
    entry: 'src/engine/engineering/json-schema.ts',
    fn: 'engineeringJsonSchemaText',
  },
];

/** The schema text the engine's zod schema generates today. */
export async function generatedSchemaText(entry = SCHEMAS[0].entry, fn = SCHEMAS[0].fn) {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'warning',
  });
  const module = { exports: {} };
  const load = new Function('module', 'exports', 'require', result.outputFiles[0].text);
  load(module, module.exports, createRequire(join(root, 'package.json')));
  return module.exports[fn]();
}

/** Writes each schema that changed; returns whether any did. */
export async function writeContractSchema() {
  let changed = false;
  for (const { path, entry, fn } of SCHEMAS) {
    const text = await generatedSchemaText(entry, fn);
    const current = existsSync(path) ? readFileSync(path, 'utf8') : null;
    if (current === text) continue;
    writeFileSync(path, text);
    changed = true;
  }
  return changed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    let allSame = true;
    for (const { path, entry, fn } of SCHEMAS) {
      const same = existsSync(path) && readFileSync(path, 'utf8') === (await generatedSchemaText(entry, fn));
      console.log(`${path.slice(root.length)} is ${same ? 'up to date' : 'stale'}`);
      allSame &&= same;
    }
    process.exit(allSame ? 0 : 1);
  }
  const changed = await writeContractSchema();
  console.log(`schemas ${changed ? 'written' : 'unchanged'}`);
}
