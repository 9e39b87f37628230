// How a benchmark loads the TypeScript sources it measures (the extension's and the app's code,
// which have no built entry of their own): bundle a few exports with esbuild into the bench's
// temp folder and import the result.
import { build } from 'esbuild';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const repo = new URL('..', import.meta.url).pathname;

/**
 * Bundles `contents` (export lines with paths relative to the repository) into `work` as `name`
 * and returns its exports. `format` 'cjs' (the default: the store loads node:os with require() on
 * first use) or 'esm'; other esbuild options (external, banner, mainFields) pass through.
 */
export async function loadSources(work, name, contents, { format = 'cjs', ...options } = {}) {
  const outfile = join(work, `${name}.${format === 'esm' ? 'mjs' : 'cjs'}`);
  await build({
    stdin: { contents, resolveDir: repo, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format,
    outfile,
    logLevel: 'error',
    ...options,
  });
  const loaded = await import(pathToFileURL(outfile).href);
  return format === 'esm' ? loaded : loaded.default;
}
