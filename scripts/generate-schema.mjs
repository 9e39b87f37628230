// Writes schemas/contract.schema.json from the engine's zod contract schema (through
// src/engine/contract/json-schema.ts, bundled in memory by esbuild: Node cannot import the
// TypeScript source directly). scripts/build.mjs runs it, so every build ships a fresh schema.
//   node scripts/generate-schema.mjs          write the file when it differs
//   node scripts/generate-schema.mjs --check  exit 1 when the committed file differs (writes nothing)
import * as esbuild from 'esbuild';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const schemaPath = join(root, 'schemas', 'contract.schema.json');

/** The schema text the engine's zod schema generates today. */
export async function generatedSchemaText() {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/engine/contract/json-schema.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'warning',
  });
  const module = { exports: {} };
  const load = new Function('module', 'exports', 'require', result.outputFiles[0].text);
  load(module, module.exports, createRequire(join(root, 'package.json')));
  return module.exports.contractJsonSchemaText();
}

/** Writes the schema when it changed; returns whether it did. */
export async function writeContractSchema() {
  const text = await generatedSchemaText();
  const current = existsSync(schemaPath) ? readFileSync(schemaPath, 'utf8') : null;
  if (current === text) return false;
  writeFileSync(schemaPath, text);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const same = existsSync(schemaPath) && readFileSync(schemaPath, 'utf8') === (await generatedSchemaText());
    console.log(
      same ? 'schemas/contract.schema.json is up to date' : 'schemas/contract.schema.json is stale',
    );
    process.exit(same ? 0 : 1);
  }
  const changed = await writeContractSchema();
  console.log(`schemas/contract.schema.json ${changed ? 'written' : 'unchanged'}`);
}
