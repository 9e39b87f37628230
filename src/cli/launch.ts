// dist/cli.js: starts the CLI bundle (dist/cli-main.js) from V8's code cache. Compiling the
// ~230 KB bundle is about a third of what a small command costs over a bare `node -e 0`; with
// the cache V8 skips parsing and reuses the bytecode of every function the build's training
// run executed. Node 22 has module.enableCompileCache for this; Node 20, which we support,
// does not, so the launcher does what it does with vm.Script's cachedData.
//
// The cache (dist/cli-main.cache) is written by the build (scripts/build.mjs), which runs the
// CLI's commands once with LOOP_LEDGER_WRITE_CODE_CACHE set. It starts with the build id that
// the bundle's first line carries, so a cache from another build is never used; V8 itself
// refuses a cache made by another V8 version or flags (then the bundle compiles as usual: the
// cache is an optimisation only, never needed).
import { closeSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';

const BUNDLE = join(__dirname, 'cli-main.js');
const CACHE = join(__dirname, 'cli-main.cache');
/** Set by the build's training run only: write the cache when the process exits. */
const WRITE_ENV = 'LOOP_LEDGER_WRITE_CODE_CACHE';
/** The bundle's first line: `/*build:<32 hex digits>*\/`. */
const ID = /^\/\*build:([0-9a-f]{32})\*\//;

function cachedDataFor(buildId: string | undefined): Buffer | undefined {
  if (buildId === undefined) return undefined;
  let cache: Buffer;
  try {
    cache = readFileSync(CACHE);
  } catch {
    return undefined; // no cache (a fresh checkout, a package without it): compile as usual
  }
  const header = Buffer.from(`${buildId}\n`, 'latin1');
  if (cache.length <= header.length || !cache.subarray(0, header.length).equals(header)) return undefined;
  return cache.subarray(header.length);
}

function writeCache(script: Script, buildId: string): void {
  const temp = `${CACHE}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, `${buildId}\n`);
    writeSync(fd, script.createCachedData());
  } finally {
    closeSync(fd);
  }
  renameSync(temp, CACHE);
}

// Code compiled from a cache cannot run `import()` under Node 20 (V8 drops the callback Node
// installs), so the bundle has none at run time: its commands' `import()`s are lazy
// initialisers inside it, and `wo`, `run` and `repeat` load their own bundles with `require`.
startFromCache();

function startFromCache(): void {
  const source = readFileSync(BUNDLE, 'utf8');
  const buildId = ID.exec(source)?.[1];
  // The wrapper Node puts around a CommonJS module; the bundle is one.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n});`, {
    filename: BUNDLE,
    cachedData: cachedDataFor(buildId),
  });
  if (process.env[WRITE_ENV] === '1' && buildId !== undefined) {
    process.on('exit', () => writeCache(script, buildId));
  }
  const bundleModule = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    bundleModule.exports,
    require,
    bundleModule,
    BUNDLE,
    __dirname,
  );
}
