// `loop-ledger repeat` (registration). The command's code — processes, hashing, prompts — is a
// bundle of its own (dist/cli-repeat.js, from ./repeat-main.ts), loaded only when `repeat` runs,
// so every other command keeps its start-up time (see run.ts).
import { join } from 'node:path';

export const raw = true;

export async function main(argv: string[]): Promise<number> {
  // A runtime path on purpose: esbuild must not inline the repeat loop into dist/cli.js.
  const bundle = join(__dirname, 'cli-repeat.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const command = require(bundle) as typeof import('./repeat-main');
  return command.main(argv);
}
