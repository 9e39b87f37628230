// `loop-ledger mcp [--root DIR]`: the MCP server over stdio, a bundle of its own (dist/mcp.js)
// that the CLI requires only for this command. JSON-RPC goes to stdout; anything else to stderr.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { chooseStore, StoreChoiceError } from '../app/ledger/store-choice';
import { createServer } from './server';
import { serveStore, type ServedStore } from './store-context';
import { LineTransport } from './stdio-transport';
import { TOOLS } from './tools';
import { RUN_TOOLS } from './tools/run';

const USAGE = `usage: loop-ledger mcp [--root DIR] [--allow-run] [--store URL] [--project NAME]

Serve the Loop Ledger tools and resources to an MCP client over stdio (JSON-RPC on stdout,
logs on stderr). Every path argument is confined to DIR (default: the current folder).
--allow-run adds run_loop, which runs the agent harness with a session contract's own checks
and an agent config under DIR: only where you trust the contracts and configs under DIR.
--store URL (or LOOP_LEDGER_STORE): the ledgers live in that PostgreSQL store, under the
project --project NAME (or LOOP_LEDGER_PROJECT; default: DIR's folder name); run_loop records
there too, its run folders staying under DIR.`;

interface Parsed {
  root: string;
  allowRun: boolean;
  store?: string;
  project?: string;
}

/** `--name VALUE` or `--name=VALUE` at argv[i]: the value and the index it ended at. */
function valueOf(argv: string[], i: number, name: string): { value: string | undefined; at: number } | null {
  const arg = argv[i] as string;
  if (arg === name) return { value: argv[i + 1], at: i + 1 };
  if (arg.startsWith(`${name}=`)) return { value: arg.slice(name.length + 1), at: i };
  return null;
}

function parse(argv: string[]): Parsed | { exit: number; text: string } {
  const parsed: Parsed = { root: process.cwd(), allowRun: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { exit: 0, text: USAGE };
    if (arg === '--allow-run') {
      parsed.allowRun = true;
      continue;
    }
    const root = valueOf(argv, i, '--root');
    if (root !== null) {
      if (root.value === undefined || root.value === '')
        return { exit: 2, text: 'loop-ledger mcp: --root needs a folder' };
      parsed.root = resolve(root.value);
      i = root.at;
      continue;
    }
    const store = valueOf(argv, i, '--store') ?? valueOf(argv, i, '--project');
    if (store !== null) {
      const flag = arg.startsWith('--store') ? '--store' : '--project';
      if (store.value === undefined || store.value === '')
        return { exit: 2, text: `loop-ledger mcp: ${flag} needs a value` };
      if (flag === '--store') parsed.store = store.value;
      else parsed.project = store.value;
      i = store.at;
      continue;
    }
    return {
      exit: 2,
      text: `loop-ledger mcp: unknown argument ${JSON.stringify(arg.slice(0, 80))}\n${USAGE}`,
    };
  }
  try {
    if (!statSync(parsed.root).isDirectory())
      return { exit: 2, text: `loop-ledger mcp: --parsed.root ${parsed.root} is not a folder` };
  } catch {
    return { exit: 2, text: `loop-ledger mcp: --parsed.root ${parsed.root} does not exist` };
  }
  return parsed;
}

/** The store the flags or the environment select, or undefined for the files under the root. */
function storeOf(parsed: Parsed): ServedStore | undefined | { exit: number; text: string } {
  const url = parsed.store ?? process.env.LOOP_LEDGER_STORE ?? '';
  if (url === '') {
    if (parsed.project !== undefined)
      return { exit: 2, text: 'loop-ledger mcp: --project needs a store (--store URL or LOOP_LEDGER_STORE)' };
    return undefined;
  }
  const retry = process.env.LOOP_LEDGER_STORE_RETRY_MS;
  try {
    return serveStore(
      chooseStore({
        url,
        from: parsed.store !== undefined ? '--store' : 'LOOP_LEDGER_STORE',
        project: parsed.project ?? process.env.LOOP_LEDGER_PROJECT,
        root: parsed.root,
        retryMs: retry !== undefined && /^\d{1,7}$/.test(retry) ? Number(retry) : undefined,
      }),
    );
  } catch (error) {
    if (error instanceof StoreChoiceError) return { exit: 2, text: `loop-ledger mcp: ${error.message}` };
    throw error;
  }
}

export async function main(argv: string[]): Promise<number> {
  const parsed = parse(argv);
  if ('exit' in parsed) {
    (parsed.exit === 0 ? process.stdout : process.stderr).write(`${parsed.text}\n`);
    return parsed.exit;
  }
  const store = storeOf(parsed);
  if (store !== undefined && 'exit' in store) {
    process.stderr.write(`${store.text}\n`);
    return store.exit;
  }
  const { server, dispose, settled } = createServer(
    parsed.root,
    parsed.allowRun ? [...TOOLS, ...RUN_TOOLS] : TOOLS,
    store,
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
  await store?.end();
  process.stdin.pause();
  return 0;
}
