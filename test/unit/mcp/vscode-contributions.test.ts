// The extension's agent-mode contributions stay in step with the MCP tools they run: each
// language-model tool's input schema is its MCP tool's (plus `folder`), and the API they need
// (VS Code 1.101) is what engines.vscode and @types/vscode both say.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const repo = resolve(__dirname, '../../../..');
const read = (path: string) => readFileSync(resolve(repo, path), 'utf8');

describe('mcp: VS Code contributions', () => {
  const manifest = JSON.parse(read('package.json'));
  const snapshot: { name: string; inputSchema: { properties: Record<string, unknown> } }[] = JSON.parse(
    read('test/unit/mcp/tool-definitions.snapshot.json'),
  );
  const source = read('src/extension/lm/lmTools.ts');

  it('each language-model tool takes its MCP tool’s arguments, plus the workspace folder', () => {
    const tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[] =
      manifest.contributes.languageModelTools;
    assert.deepEqual(
      tools.map((t) => t.name),
      ['loopLedger_sessionStatus', 'loopLedger_recordIteration', 'loopLedger_assembleBrief'],
    );
    for (const tool of tools) {
      const mcpName = new RegExp(`${tool.name}: \\{ tool: '(\\w+)'`).exec(source)?.[1];
      const mcp = snapshot.find((t) => t.name === mcpName);
      assert.ok(mcp, `${tool.name} runs an MCP tool`);
      const { folder, ...rest } = tool.inputSchema.properties;
      assert.ok(folder);
      assert.deepEqual({ ...tool.inputSchema, properties: rest }, mcp.inputSchema, tool.name);
    }
  });

  it('offers the MCP server through a definition provider; engines and types agree on 1.101', () => {
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders, [
      { id: 'loopLedger.mcp', label: '%mcp.provider.label%' },
    ]);
    assert.match(read('src/extension/lm/mcpProvider.ts'), /MCP_PROVIDER_ID = 'loopLedger\.mcp'/);
    assert.equal(manifest.engines.vscode, '^1.101.0');
    assert.equal(manifest.devDependencies['@types/vscode'], '1.101.0');
  });
});
