// `loop-ledger run`: registered as a drop-in command that parses its own argv. The harness code
// (git, processes, TOML) is a bundle of its own (dist/cli-run.js, from ./run/main.ts), loaded only
// when `run` is called: inlined, it would make dist/cli.js half again as large, and every other
// command (one per agent step) would pay to compile it at start-up.
import { join } from 'node:path';

export const raw = true;
/** LOOP_LEDGER_STORE: its ledgers are recorded in that store (src/cli/raw-store.ts). */
export const stores = true;

export async function main(argv: string[]): Promise<number> {
  // A runtime path on purpose: esbuild must not inline the harness into dist/cli.js.
  const bundle = join(__dirname, 'cli-run.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { main: runMain } = require(bundle) as typeof import('./run/main');
  return runMain(argv);
}
