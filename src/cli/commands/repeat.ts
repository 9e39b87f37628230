// `loop-ledger repeat` (registration). The command's code — processes, hashing, prompts — is a
// bundle of its own (dist/cli-repeat.js, from ./repeat/main.ts), loaded only when `repeat` runs,
// so every other command keeps its start-up time (see run.ts).
import { join } from 'node:path';

export const raw = true;
/** LOOP_LEDGER_STORE: its ledgers are recorded in that store (src/cli/raw-store.ts). */
export const stores = true;

/** The repeat loop's bundle; `resume` loads it too, to continue a repeat. */
export function repeatBundle(): typeof import('./repeat/main') {
  // A runtime path on purpose: esbuild must not inline the repeat loop into the CLI's bundles.
  const bundle = join(__dirname, 'cli-repeat.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(bundle) as typeof import('./repeat/main');
}

export async function main(argv: string[]): Promise<number> {
  return repeatBundle().main(argv);
}
