// The MCP server's two figures: what its tool definitions cost a client's context (tokens ≈
// characters / 4 of tools/list's JSON; aim ≤ 2,500), and a `status` through a warm server against
// spawning the CLI for it (aim ≥ 10× faster a call). Run after a build: `node bench/mcp.mjs`.
//
// A benchmark, not a test: it prints what it measured and whether each aim was met, and exits 0
// either way (non-zero only when a call fails outright).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, contract } from './fixtures.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 40);
const env = { ...process.env };
delete env.NODE_OPTIONS;
delete env.NODE_EXTRA_CA_CERTS;

const work = mkdtempSync(join(tmpdir(), 'loop-ledger-bench-mcp-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
writeFileSync(join(work, 'c.json'), JSON.stringify(contract));
const cli = (...args) => spawnSync(process.execPath, [CLI, ...args], { cwd: work, env, encoding: 'utf8' });
if (cli('open', '--session', 's', '--contract', 'c.json').status !== 0) throw new Error('open failed');
if (cli('iterate', '--session', 's', '--outcome', 'continue', '--action', 'a').status !== 0)
  throw new Error('iterate failed');

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [CLI, 'mcp', '--root', work],
  env,
});
const client = new Client({ name: 'bench', version: '1' });
await client.connect(transport);
const { tools } = await client.listTools();
const tokens = Math.round(JSON.stringify(tools).length / 4);

const time = async (fn) => {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
};
let warm = 0;
let spawned = 0;
// Interleaved, so a noisy moment on the machine hits both alike; the first pair is a warm-up.
for (let i = 0; i <= CALLS; i++) {
  const w = await time(async () => {
    const r = await client.callTool({ name: 'session_status', arguments: { session: 's' } });
    if (r.isError) throw new Error(r.content[0].text);
  });
  const s = await time(
    () =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [CLI, 'status', '--session', 's', '--json'], {
          cwd: work,
          env,
          stdio: 'ignore',
        });
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`status exit ${code}`))));
      }),
  );
  if (i > 0) {
    warm += w;
    spawned += s;
  }
}
await client.close();
const ratio = spawned / warm;
console.log(
  `tool definitions: ${tools.length} tools, ${tokens} tokens (aim ≤ 2,500): ${tokens <= 2500 ? 'met' : 'MISSED'}`,
);
console.log(
  `status: warm server ${(warm / CALLS).toFixed(2)} ms, CLI spawn ${(spawned / CALLS).toFixed(2)} ms a call: ${ratio.toFixed(1)}× (aim ≥ 10×): ${ratio >= 10 ? 'met' : 'MISSED'}`,
);
