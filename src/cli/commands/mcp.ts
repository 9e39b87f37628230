// `loop-ledger mcp`: the Model Context Protocol server. Its code (the SDK, the tool table) is a
// bundle of its own (dist/mcp.js, from src/mcp/main.ts), required only when `mcp` runs, so no
// other command pays to load it.
import { join } from 'node:path';

export const raw = true;
/** `--store URL` / LOOP_LEDGER_STORE: the tools read and write that store (parsed by the server). */
export const stores = true;

export async function main(argv: string[]): Promise<number> {
  // A runtime path on purpose: esbuild must not inline the server into dist/cli.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { main: serve } = require(join(__dirname, 'mcp.js')) as typeof import('../../mcp/main');
  return serve(argv);
}
