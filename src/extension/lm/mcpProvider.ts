// Offers `loop-ledger mcp` to VS Code's agent mode: one server definition per workspace folder,
// and none while the workspace is untrusted (the server writes ledgers). The server is this
// extension's own CLI run by the extension host's runtime, so no install on PATH is needed.
import * as vscode from 'vscode';
import type { TrustGate } from '../workspace/trust';

export const MCP_PROVIDER_ID = 'loopLedger.mcp';

export function serverDefinitions(
  extensionPath: string,
  trusted: boolean,
  folders: readonly vscode.WorkspaceFolder[],
): vscode.McpStdioServerDefinition[] {
  if (!trusted) return [];
  const cli = vscode.Uri.joinPath(vscode.Uri.file(extensionPath), 'dist', 'cli.js').fsPath;
  return folders.map((folder) => {
    const label = folders.length === 1 ? 'Loop Ledger' : `Loop Ledger (${folder.name})`;
    // The extension host may be Electron: this makes its binary run as plain Node.
    const definition = new vscode.McpStdioServerDefinition(
      label,
      process.execPath,
      [cli, 'mcp', '--root', folder.uri.fsPath],
      { ELECTRON_RUN_AS_NODE: '1' },
    );
    definition.cwd = folder.uri;
    return definition;
  });
}

export function registerMcpProvider(
  context: vscode.ExtensionContext,
  trust: TrustGate,
  observe?: (provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>) => void,
): void {
  const changed = new vscode.EventEmitter<void>();
  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () =>
      serverDefinitions(context.extensionPath, trust.isTrusted, vscode.workspace.workspaceFolders ?? []),
  };
  observe?.(provider);
  context.subscriptions.push(
    changed,
    vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
  );
}
