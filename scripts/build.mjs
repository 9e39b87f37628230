// Builds every bundle with esbuild: the CLI (one file, fast start), the extension host (CJS,
// `vscode` external) and each test file (so mocha runs plain JS without a TypeScript loader).
import * as esbuild from 'esbuild';
import {
  readdirSync,
  readFileSync,
  statSync,
  existsSync,
  chmodSync,
  mkdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { writeContractSchema } from './generate-schema.mjs';
import { writeWasmModules } from './generate-wasm.mjs';
import { writeNotices } from './third-party-notices.mjs';
import { writeCliCodeCache } from './cli-code-cache.mjs';
import { randomBytes } from 'node:crypto';

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
  // `@vscode/l10n` (the string-table calls of modules tests load without VS Code) is our own two
  // functions; the package only lends its types (see src/extension/l10nText.ts).
  alias: { '@vscode/l10n': './src/extension/l10nText.ts' },
};

// The editor's contract schema is generated from the engine's zod schema (see generate-schema.mjs)
// before anything is bundled: the contract validator reads its shape from it (shape.ts).
await writeContractSchema();
// The WebAssembly modules travel as base64 in a module generated from their text source.
await writeWasmModules();

// The kernel bundles are rebuilt from scratch, so no stale file (an old split chunk) ships.
rmSync(join(root, 'dist', 'wo'), { recursive: true, force: true });
rmSync(join(root, 'dist', 'cli-cmd'), { recursive: true, force: true });

/** The everyday commands (src/cli/command-table.ts's COMMANDS), each built as a bundle of its own. */
function everydayCommands() {
  const table = readFileSync(join(root, 'src/cli/command-table.ts'), 'utf8');
  const body = /export const COMMANDS[^{]*\{([^}]*)\}/.exec(table)?.[1] ?? '';
  const names = [...body.matchAll(/^\s*(\w+): \(\) => import\('\.\/commands\/\1'\),$/gm)].map((m) => m[1]);
  if (names.length === 0) throw new Error('build: no commands found in src/cli/command-table.ts');
  return names;
}

// One id for every CLI bundle of this build: the first line of each, and of each one's cache.
const buildBanner = watch ? {} : { banner: { js: `/*build:${randomBytes(16).toString('hex')}*/` } };

const builds = [
  // The CLI: a small launcher (dist/cli.js, the `bin`) that starts the bundle (dist/cli-main.js)
  // from the V8 code cache written below (src/cli/launch.ts). The bundle's first line is this
  // build's id, which the cache must carry to be used.
  {
    ...common,
    entryPoints: ['src/cli/launch.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
    minify: true,
  },
  {
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli-main.js',
    // No id under --watch: a rebuild keeps the banner but gets no new cache, and a stale cache
    // for a bundle of the same length would run old bytecode. Without an id no cache is used.
    ...buildBanner,
    minify: true,
  },
  // Each everyday command again, alone: the same dispatch (src/cli/start.ts) over that one
  // command. The launcher runs it when argv names the command; it is a fifth of the full bundle,
  // and so is its code cache, which V8 reads whole before running anything.
  ...everydayCommands().map((name) => ({
    ...common,
    stdin: {
      contents: [
        `import { startCli } from './start';`,
        `import { USAGE } from './usage-text';`,
        `const commands = { ${name}: () => import('./commands/${name}') };`,
        `startCli({ commands, raw: {}, usage: USAGE }, process.argv.slice(2));`,
      ].join('\n'),
      resolveDir: join(root, 'src/cli'),
      sourcefile: `src/cli/command-${name}.ts`,
      loader: 'ts',
    },
    outfile: `dist/cli-cmd/${name}.js`,
    ...buildBanner,
    minify: true,
  })),
  // `loop-ledger run` and `repeat` load these on demand (src/cli/commands/run.ts, repeat.ts): the
  // harness and the repeat loop stay out of the file every other command compiles at start-up.
  {
    ...common,
    entryPoints: ['src/cli/commands/run/main.ts'],
    outfile: 'dist/cli-run.js',
    minify: true,
  },
  {
    ...common,
    entryPoints: ['src/cli/commands/repeat/main.ts'],
    outfile: 'dist/cli-repeat.js',
    minify: true,
  },
  // `loop-ledger mcp` requires this on demand (src/cli/commands/mcp.ts): the MCP server and its SDK.
  {
    ...common,
    entryPoints: ['src/mcp/main.ts'],
    outfile: 'dist/mcp.js',
    minify: true,
  },
  // A PostgreSQL store (`--store`, LOOP_LEDGER_STORE) requires this on demand (src/cli/store-select.ts):
  // the store's operations and the `pg` driver, never loaded for the files under the root.
  // `pg-native` is the driver's optional libpq binding, which it only requires when asked to.
  {
    ...common,
    entryPoints: ['src/app/ledger/pg-store.ts'],
    outfile: 'dist/pg.js',
    external: ['pg-native'],
    minify: true,
  },
  // `loop-ledger wo` (work orders) requires these on demand (src/cli/commands/wo.ts): the small
  // dispatcher, and one self-contained CommonJS bundle per kernel group (src/cli/commands/wo/*),
  // so a kernel loads only its own code (reconcile never parses the YAML library). CommonJS, not
  // split ES modules: under load the ES module loader cost more than the kernels (bench/wo.mjs).
  {
    ...common,
    entryPoints: Object.fromEntries([
      ['wo-kernels', 'src/cli/wo-kernels.ts'],
      ...tsFilesUnder('src/cli/commands/wo')
        .filter((file) => !file.slice('src/cli/commands/wo/'.length).includes('/'))
        .map((file) => [basename(file, '.ts'), file]),
    ]),
    outdir: 'dist/wo',
    minify: true,
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
  // The worker thread that reads ledgers for the Sessions tree (sessionsReader.ts) and large ones
  // for the session overview (overviewRunner.ts).
  builds.push({
    ...common,
    entryPoints: ['src/extension/overview/overviewWorker.ts'],
    outfile: 'dist/overviewWorker.js',
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

// The session overview and dashboard app (one bundle, two pages) with its stylesheet beside it.
builds.push({
  absWorkingDir: root,
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  entryPoints: ['webview/overview/main.ts'],
  // An outfile (not an outdir), so its metafile joins the third-party notices as every shipped bundle's does.
  outfile: 'dist/webview/overview.js',
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
// Node looks up the nearest package.json of the script it starts, to learn its module type. With
// this one the lookup ends in dist/ instead of reading and parsing the 16 KB extension manifest
// at every CLI start (~0.5 ms). The bundles are CommonJS either way.
writeFileSync(join(root, 'dist', 'package.json'), '{ "type": "commonjs" }\n');
// A cache from an earlier build would be refused (another build id): remove it, then train one
// (the per-command bundles' caches went with dist/cli-cmd above).
rmSync(join(root, 'dist', 'cli-main.cache'), { force: true });
if (!watch) writeCliCodeCache(join(root, 'dist', 'cli.js'));
