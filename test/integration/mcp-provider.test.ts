// The MCP server VS Code's agent mode is offered, in a real VS Code: the registered provider
// gives one definition for the workspace folder, that definition starts a working server (it
// answers initialize and lists the tools), and an untrusted workspace is offered none.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestingApi } from '../hooks/testHooks';
import { talk } from './mcpTalk';
import { testingApi, workspaceRoot } from './sessionsHelpers';

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
