// dist/cli.js: starts the CLI bundle (dist/cli-main.js) from V8's code cache. Compiling the
// ~230 KB bundle is about a third of what a small command costs over a bare `node -e 0`; with
// the cache V8 skips parsing and reuses the bytecode of every function the build's training
// run executed. Node 22 has module.enableCompileCache for this; Node 20, which we support,
// does not, so the launcher does what it does with vm.Script's cachedData.
//
// The bundle is the command's own when argv names an everyday command (dist/cli-cmd/<name>.js,
// the same dispatch over that command alone: a fifth of the code and of the cache to load),
// else the full one. Each bundle's cache (<bundle>.cache) is written by the build
// (scripts/build.mjs), which runs the CLI's commands once with LOOP_LEDGER_WRITE_CODE_CACHE set.
// It starts with the build id that the bundle's first line carries, so a cache from another
// build is never used; V8 itself refuses a cache made by another V8 version or flags (then the
// bundle compiles as usual: the cache is an optimisation only, never needed).
import { closeSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';

const BUNDLE = join(__dirname, 'cli-main.js');
/** A name that can only be a command (never a path): its bundle is looked up, nothing else is. */
const COMMAND_NAME = /^[a-z]{1,20}$/;
/** Set by the build's training run only: write the cache when the process exits. */
const WRITE_ENV = 'LOOP_LEDGER_WRITE_CODE_CACHE';
/** The bundle's first line: `/*build:<32 hex digits>*\/`. */
const ID = /^\/\*build:([0-9a-f]{32})\*\//;

/** The cache that belongs beside `bundle`: `x.js` → `x.cache`. */
function cacheOf(bundle: string): string {
  return bundle.slice(0, -'.js'.length) + '.cache';
}

/** The command's own bundle and its text when there is one, else the full bundle's. */
function bundleFor(command: string | undefined): { path: string; source: string } {
  if (command !== undefined && COMMAND_NAME.test(command)) {
    const own = join(__dirname, 'cli-cmd', `${command}.js`);
    try {
      return { path: own, source: readFileSync(own, 'utf8') };
    } catch {
      // not an everyday command (`run`, `wo`, a typo): the full bundle answers it
    }
  }
  return { path: BUNDLE, source: readFileSync(BUNDLE, 'utf8') };
}

function cachedDataFor(cacheFile: string, buildId: string | undefined): Buffer | undefined {
  if (buildId === undefined) return undefined;
  let cache: Buffer;
  try {
    cache = readFileSync(cacheFile);
  } catch {
    return undefined; // no cache (a fresh checkout, a package without it): compile as usual
  }
  const header = Buffer.from(`${buildId}\n`, 'latin1');
  if (cache.length <= header.length || !cache.subarray(0, header.length).equals(header)) return undefined;
  return cache.subarray(header.length);
}

function writeCache(script: Script, cacheFile: string, buildId: string): void {
  const temp = `${cacheFile}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, `${buildId}\n`);
    writeSync(fd, script.createCachedData());
  } finally {
    closeSync(fd);
  }
  renameSync(temp, cacheFile);
}

// Code compiled from a cache cannot run `import()` under Node 20 (V8 drops the callback Node
// installs), so the bundle has none at run time: its commands' `import()`s are lazy
// initialisers inside it, and `wo`, `run` and `repeat` load their own bundles with `require`.
startFromCache();

function startFromCache(): void {
  const bundle = bundleFor(process.argv[2]);
  const cacheFile = cacheOf(bundle.path);
  const buildId = ID.exec(bundle.source)?.[1];
  // The wrapper Node puts around a CommonJS module; the bundle is one.
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) { ${bundle.source}\n});`,
    {
      filename: bundle.path,
      // The benchmark's plain variant (bench/pieces.mjs): compile the bundle as Node would.
      cachedData: process.env.LOOP_LEDGER_BENCH_PLAIN?.includes('code-cache')
        ? undefined
        : cachedDataFor(cacheFile, buildId),
    },
  );
  if (process.env[WRITE_ENV] === '1' && buildId !== undefined) {
    process.on('exit', () => writeCache(script, cacheFile, buildId));
  }
  const bundleModule = { exports: {} };
  // __dirname stays dist/: the bundles find their siblings (cli-run.js, wo/) from there.
  (script.runInThisContext() as (...args: unknown[]) => void)(
    bundleModule.exports,
    require,
    bundleModule,
    bundle.path,
    __dirname,
  );
}
