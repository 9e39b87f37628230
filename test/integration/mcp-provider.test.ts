// The MCP server VS Code's agent mode is offered, in a real VS Code: the registered provider
// gives one definition for the workspace folder, that definition starts a working server (it
// answers initialize and lists the tools), and an untrusted workspace is offered none.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as vscode from 'vscode';
import type { TestingApi } from '../hooks/testHooks';
import { testingApi, workspaceRoot } from './sessionsHelpers';

/** Sends JSON-RPC lines to the server the definition starts; resolves with the answers by id. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = any;

function talk(definition: vscode.McpStdioServerDefinition, requests: object[], wanted: number[]) {
  return new Promise<Map<number, Answer>>((resolve, reject) => {
    const child = spawn(definition.command, definition.args, {
      cwd: definition.cwd?.fsPath,
      env: { ...process.env, ...(definition.env as Record<string, string>) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const answers = new Map<number, Answer>();
    let buffered = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not answer in time; stderr: ${stderr}`));
    }, 60_000);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.trim() === '') continue;
        const message = JSON.parse(line) as { id?: number };
        if (typeof message.id === 'number') answers.set(message.id, message);
        if (wanted.every((id) => answers.has(id))) {
          clearTimeout(timer);
          child.stdin.end();
          resolve(answers);
        }
      }
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    for (const request of requests) child.stdin.write(`${JSON.stringify(request)}\n`);
  });
}

describe('the MCP server offered to agent mode', () => {
  let testing: TestingApi;

  before(async () => {
    testing = await testingApi();
  });

  it('offers one server for the workspace folder, and it answers initialize and tools/list', async () => {
    const definitions = await testing.mcp.definitions();
    assert.equal(definitions.length, 1);
    const [definition] = definitions as [vscode.McpStdioServerDefinition];
    assert.ok(definition.args.includes('mcp'), definition.args.join(' '));
    assert.equal(definition.args[definition.args.indexOf('--root') + 1], workspaceRoot());
    const answers = await talk(
      definition,
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'test', version: '1' },
          },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      ],
      [1, 2],
    );
    assert.equal(answers.get(1).result.serverInfo.name, 'loop-ledger');
    const names = (answers.get(2).result.tools as { name: string }[]).map((t) => t.name);
    for (const name of ['list_sessions', 'session_status', 'record_iteration', 'assemble_brief'])
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
  });

  it('offers none while the workspace is untrusted', async () => {
    const untrusted = testing.trust.simulateUntrusted();
    try {
      assert.deepEqual(await testing.mcp.definitions(), []);
    } finally {
      untrusted.dispose();
    }
    assert.equal((await testing.mcp.definitions()).length, 1);
  });
});
