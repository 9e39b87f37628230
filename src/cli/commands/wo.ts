// `loop-ledger wo …` — the work-order queue, a drop-in surface with argv conventions of its own.
// Its code lives in separate CommonJS bundles (dist/wo/, from src/cli/wo-kernels.ts and
// src/cli/commands/wo/*) required only when `wo` runs: the YAML parser and the loop would
// otherwise more than triple the single-file CLI every other command starts with (the CLI starts
// once per agent step).
import { join } from 'node:path';

export const raw = true;
/** LOOP_LEDGER_STORE: its ledgers are recorded in that store (src/cli/raw-store.ts). */
export const stores = true;

interface WoKernels {
  main(argv: string[]): Promise<number>;
}

export async function main(argv: string[]): Promise<number> {
  // A runtime path on purpose: esbuild must not inline the kernels into dist/cli.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const kernels = require(join(__dirname, 'wo', 'wo-kernels.js')) as WoKernels;
  return kernels.main(argv);
}
