// The write-or-check step shared by the scripts that generate committed files from a source of
// truth (generate-schema.mjs, generate-wasm.mjs): the build writes each file whose text changed;
// the static tier runs the script with --check, which fails when a committed file is stale.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const upToDate = (path, text) => existsSync(path) && readFileSync(path, 'utf8') === text;

/** Writes each of `texts` (path → text) that differs from the file; returns whether any did. */
export function writeChanged(texts) {
  let changed = false;
  for (const [path, text] of texts) {
    if (upToDate(path, text)) continue;
    writeFileSync(path, text);
    changed = true;
  }
  return changed;
}

/**
 * The command line of a generating script: with --check, exits 1 naming every stale file
 * (writing nothing); otherwise writes the changed ones. `label` names what is generated.
 */
export async function generateMain(texts, { root, label, script }) {
  if (process.argv.includes('--check')) {
    const stale = [...(await texts())].filter(([path, text]) => !upToDate(path, text));
    for (const [path] of stale) console.log(`${path.slice(root.length)} is stale: run node ${script}`);
    if (stale.length === 0) console.log(`${label} up to date`);
    process.exit(stale.length === 0 ? 0 : 1);
  }
  console.log(`${label} ${writeChanged(await texts()) ? 'written' : 'unchanged'}`);
}
