// Builds every bundle with esbuild: the CLI (one file, fast start), the extension host (CJS,
// `vscode` external) and each test file (so mocha runs plain JS without a TypeScript loader).
import * as esbuild from 'esbuild';
import { readdirSync, statSync, existsSync, chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeContractSchema } from './generate-schema.mjs';
import { writeNotices } from './third-party-notices.mjs';

const root = new URL('..', import.meta.url).pathname;
const watch = process.argv.includes('--watch');

/** Every `*.ts` file below `dir`, relative to the project root. */
function tsFilesUnder(dir) {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  const out = [];
  for (const name of readdirSync(abs)) {
    const rel = join(dir, name);
    if (statSync(join(root, rel)).isDirectory()) out.push(...tsFilesUnder(rel));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  logLevel: 'warning',
  // Licenses ship once, in dist/ThirdPartyNotices.txt, built from the bundles' metafiles below.
  legalComments: 'none',
  // Prefer a package's ES module build: jsonc-parser's `main` is a UMD file whose internal
  // requires esbuild cannot follow (the bundle would fail with "Cannot find module ./impl/format").
  mainFields: ['module', 'main'],
};

// The editor's contract schema is generated from the engine's zod schema (see generate-schema.mjs)
// before anything is bundled: the contract validator reads its shape from it (shape.ts).
await writeContractSchema();

// Split chunks have hashed names: clear the old ones so no stale chunk ships.
rmSync(join(root, 'dist', 'wo'), { recursive: true, force: true });

const builds = [
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    minify: true,
  },
  // `loop-ledger wo` (work orders) loads these on demand (src/cli/commands/wo.ts): ES modules
  // split into chunks, so a kernel loads only its own code (reconcile never parses the YAML library).
  {
    ...common,
    entryPoints: ['src/cli/wo-kernels.ts'],
    outdir: 'dist/wo',
    format: 'esm',
    splitting: true,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    minify: true,
    // CommonJS dependencies inside an ES module bundle need a `require` for node built-ins.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  },
];

if (existsSync(join(root, 'src/extension/extension.ts'))) {
  builds.push({
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    // Halves what the extension host parses at activation; the linked source map keeps stack traces readable.
    minify: true,
  });
  // The worker thread that checks large contracts off the extension host (contractCheckRunner.ts).
  builds.push({
    ...common,
    entryPoints: ['src/extension/contract/contractCheckWorker.ts'],
    outfile: 'dist/contractCheckWorker.js',
    minify: true,
  });
}

// The critic-brief panel app: a browser ES module with its stylesheet beside it (brief.css).
builds.push({
  absWorkingDir: root,
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  entryPoints: ['webview/main.ts'],
  outfile: 'dist/webview/brief.js',
  sourcemap: 'linked',
  minify: true,
  logLevel: 'warning',
  legalComments: 'none',
});

// Tests are rebuilt from scratch so a deleted test's old output can never run again.
if (!watch) rmSync(join(root, 'out', 'test'), { recursive: true, force: true });
const testEntries = tsFilesUnder('test').filter((f) => !f.startsWith('test/fixtures/'));
if (testEntries.length > 0) {
  builds.push({
    ...common,
    entryPoints: testEntries,
    outdir: 'out/test',
    outbase: 'test',
    external: ['vscode', 'mocha', 'fast-check', 'playwright-core'],
  });
}

/** Metafiles of the bundles that ship in the .vsix (dist/), for the third-party notices. */
const shipped = [];
for (const options of builds) {
  if (watch) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  } else {
    const result = await esbuild.build({ ...options, metafile: true });
    if (options.outfile?.startsWith('dist/'))
      shipped.push({ name: options.outfile, metafile: result.metafile });
  }
}
if (!watch) {
  writeNotices(
    root,
    shipped.map((s) => s.metafile),
  );
  // Kept for the unit test that checks the notices against what each bundle really contains.
  mkdirSync(join(root, 'out'), { recursive: true });
  writeFileSync(join(root, 'out', 'bundle-metafiles.json'), JSON.stringify(shipped));
}
if (existsSync(join(root, 'dist/cli.js'))) chmodSync(join(root, 'dist/cli.js'), 0o755);
