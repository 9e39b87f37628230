// A real MCP client (the SDK's Client over its stdio transport) driving `loop-ledger mcp` as a
// child process, as Claude Code or VS Code would.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, childEnv } from '../helpers/cli';

export interface Connected {
  client: Client;
  transport: StdioClientTransport;
  close(): Promise<void>;
}

export async function connect(
  root: string,
  extraArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--root', root, ...extraArgs],
    env: childEnv(env) as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'loop-ledger-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, close: () => client.close() };
}

/** A tools/call's result, typed loosely for the assertions. */
export async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    result,
    isError: result.isError === true,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    data: result.structuredContent as any,
    exitCode: result._meta?.['loop-ledger/exit_code'] as number | undefined,
    text: (result.content[0] as { text: string }).text,
  };
}

/** The server as a bare child, for what no well-behaved client sends. */
export function rawServer(root: string): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [CLI, 'mcp', '--root', root], { env: childEnv() });
}

/** Lines the raw server printed, parsed, collected until `count` have arrived. */
export function replies(child: ChildProcessWithoutNullStreams, count: number): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const out: unknown[] = [];
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
        out.push(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
        if (out.length === count) resolve(out);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code} after ${out.length} replies`)));
  });
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
