// `loop-ledger mcp [--root DIR]`: the MCP server over stdio, a bundle of its own (dist/mcp.js)
// that the CLI requires only for this command. JSON-RPC goes to stdout; anything else to stderr.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer } from './server';
import { LineTransport } from './stdio-transport';
import { TOOLS } from './tools';
import { RUN_TOOLS } from './tools/run';

const USAGE = `usage: loop-ledger mcp [--root DIR] [--allow-run]

Serve the Loop Ledger tools and resources to an MCP client over stdio (JSON-RPC on stdout,
logs on stderr). Every path argument is confined to DIR (default: the current folder).
--allow-run adds run_loop, which runs the agent harness with a session contract's own checks
and an agent config under DIR: only where you trust the contracts and configs under DIR.`;

function parse(argv: string[]): { root: string; allowRun: boolean } | { exit: number; text: string } {
  let root = process.cwd();
  let allowRun = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { exit: 0, text: USAGE };
    if (arg === '--allow-run') {
      allowRun = true;
      continue;
    }
    if (arg === '--root' || arg.startsWith('--root=')) {
      const value = arg === '--root' ? argv[++i] : arg.slice('--root='.length);
      if (value === undefined || value === '')
        return { exit: 2, text: 'loop-ledger mcp: --root needs a folder' };
      root = resolve(value);
      continue;
    }
    return {
      exit: 2,
      text: `loop-ledger mcp: unknown argument ${JSON.stringify(arg.slice(0, 80))}\n${USAGE}`,
    };
  }
  try {
    if (!statSync(root).isDirectory())
      return { exit: 2, text: `loop-ledger mcp: --root ${root} is not a folder` };
  } catch {
    return { exit: 2, text: `loop-ledger mcp: --root ${root} does not exist` };
  }
  return { root, allowRun };
}

export async function main(argv: string[]): Promise<number> {
  const parsed = parse(argv);
  if ('exit' in parsed) {
    (parsed.exit === 0 ? process.stdout : process.stderr).write(`${parsed.text}\n`);
    return parsed.exit;
  }
  const { server, dispose, settled } = createServer(
    parsed.root,
    parsed.allowRun ? [...TOOLS, ...RUN_TOOLS] : TOOLS,
  );
  const transport = new LineTransport();
  const closed = new Promise<void>((done) => {
    server.onclose = () => done();
  });
  server.onerror = (error) => process.stderr.write(`loop-ledger mcp: ${error.message}\n`);
  await server.connect(transport);
  await closed;
  // End of input: every ledger write already finished (each is synchronous under the ledger's
  // lock); a run, aborted by the close, is let finish its cancellation.
  await settled();
  dispose();
  process.stdin.pause();
  return 0;
}
