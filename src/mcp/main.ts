// `loop-ledger mcp [--root DIR]`: the MCP server over stdio, a bundle of its own (dist/mcp.js)
// that the CLI requires only for this command. JSON-RPC goes to stdout; anything else to stderr.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer } from './server';
import { LineTransport } from './stdio-transport';

const USAGE = `usage: loop-ledger mcp [--root DIR]

Serve the Loop Ledger tools and resources to an MCP client over stdio (JSON-RPC on stdout,
logs on stderr). Every path argument is confined to DIR (default: the current folder).`;

function parse(argv: string[]): { root: string } | { exit: number; text: string } {
  let root = process.cwd();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { exit: 0, text: USAGE };
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
  return { root };
}

export async function main(argv: string[]): Promise<number> {
  const parsed = parse(argv);
  if ('exit' in parsed) {
    (parsed.exit === 0 ? process.stdout : process.stderr).write(`${parsed.text}\n`);
    return parsed.exit;
  }
  const { server, dispose } = createServer(parsed.root);
  const transport = new LineTransport();
  const closed = new Promise<void>((done) => {
    server.onclose = () => done();
  });
  server.onerror = (error) => process.stderr.write(`loop-ledger mcp: ${error.message}\n`);
  await server.connect(transport);
  await closed;
  // End of input: every write already finished (each is synchronous under the ledger's lock).
  dispose();
  process.stdin.pause();
  return 0;
}
