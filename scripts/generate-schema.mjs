// Writes the JSON schemas the editor and the CLI read, from the engine's zod schemas:
// schemas/contract.schema.json and the editor's schemas/contract.editor.schema.json from the
// work-loop contract's (src/engine/contract/json-schema.ts), and
// schemas/loop-engineering.schema.json from the loop-engineering contract's
// (src/engine/engineering/json-schema.ts), and schemas/contract-file.editor.schema.json, the
// editor's schema for JSON contract files of either kind (src/engine/engineering/editor-schema.ts). Each module is bundled in memory by esbuild (Node
// cannot import the TypeScript source directly). scripts/build.mjs runs it, so every build ships
// fresh schemas.
//   node scripts/generate-schema.mjs          write each file that differs
//   node scripts/generate-schema.mjs --check  exit 1 when a committed file differs (writes nothing)
import * as esbuild from 'esbuild';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateMain, writeChanged } from './generated-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
export const schemaPath = join(root, 'schemas', 'contract.schema.json');
export const editorSchemaPath = join(root, 'schemas', 'contract.editor.schema.json');
export const engineeringSchemaPath = join(root, 'schemas', 'loop-engineering.schema.json');
export const contractFileEditorSchemaPath = join(root, 'schemas', 'contract-file.editor.schema.json');

/** Every generated schema: its file, the module that generates it and the function it calls. */
const SCHEMAS = [
  { path: schemaPath, entry: 'src/engine/contract/json-schema.ts', fn: 'contractJsonSchemaText' },
  { path: editorSchemaPath, entry: 'src/engine/contract/json-schema.ts', fn: 'contractEditorSchemaText' },
  {
    path: engineeringSchemaPath,
    entry: 'src/engine/engineering/json-schema.ts',
    fn: 'engineeringJsonSchemaText',
  },
  {
    path: contractFileEditorSchemaPath,
    entry: 'src/engine/engineering/editor-schema.ts',
    fn: 'contractFileEditorSchemaText',
  },
];

async function loadModule(entry) {
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
  return module.exports;
}

/** The schema texts the engine's zod schemas generate today, by path. */
export async function generatedSchemaTexts() {
  const modules = new Map();
  const texts = new Map();
  for (const { path, entry, fn } of SCHEMAS) {
    if (!modules.has(entry)) modules.set(entry, await loadModule(entry));
    texts.set(path, modules.get(entry)[fn]());
  }
  return texts;
}

/** Writes each schema that changed; returns whether any did. */
export async function writeContractSchema() {
  return writeChanged(await generatedSchemaTexts());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await generateMain(generatedSchemaTexts, {
    root,
    label: 'schemas/:',
    script: 'scripts/generate-schema.mjs',
  });
}
