// Writes schemas/contract.schema.json and the editor's schemas/contract.editor.schema.json from
// the engine's zod contract schema (through
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
export const editorSchemaPath = join(root, 'schemas', 'contract.editor.schema.json');

/** The schema texts the engine's zod schema generates today, by path. */
export async function generatedSchemaTexts() {
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
  return new Map([
    [schemaPath, module.exports.contractJsonSchemaText()],
    [editorSchemaPath, module.exports.contractEditorSchemaText()],
  ]);
}

const upToDate = (path, text) => existsSync(path) && readFileSync(path, 'utf8') === text;

/** Writes each schema that changed; returns whether any did. */
export async function writeContractSchema() {
  let changed = false;
  for (const [path, text] of await generatedSchemaTexts()) {
    if (upToDate(path, text)) continue;
    writeFileSync(path, text);
    changed = true;
  }
  return changed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const stale = [...(await generatedSchemaTexts())].filter(([path, text]) => !upToDate(path, text));
    for (const [path] of stale) console.log(`${path.slice(root.length)} is stale`);
    if (stale.length === 0) console.log('schemas/ are up to date');
    process.exit(stale.length === 0 ? 0 : 1);
  }
  const changed = await writeContractSchema();
  console.log(`schemas/ ${changed ? 'written' : 'unchanged'}`);
}
