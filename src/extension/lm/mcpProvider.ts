// Offers `loop-ledger mcp` to VS Code's agent mode: one server definition per workspace folder,
// and none while the workspace is untrusted (the server writes ledgers). The server is this
// extension's own CLI run by the extension host's runtime, so no install on PATH is needed. On a
// store window the server is given the same `--store URL --project NAME` as the window's CLI lines
// (the URL from the settings, without a password). The password from secret storage is added
// only as VS Code starts the server (resolveMcpServerDefinition), to that process's environment
// (PGPASSWORD, which the driver reads): never in its arguments, and never in the definitions
// VS Code lists and may keep.
import * as vscode from 'vscode';
import type { StoreWrites } from '../sessions/sessionSource';
import { PROJECT_SETTING, STORE_SETTING } from '../store/storeConfig';
import type { TrustGate } from '../workspace/trust';

export const MCP_PROVIDER_ID = 'loopLedger.mcp';

export function serverDefinitions(
  extensionPath: string,
  trusted: boolean,
  folders: readonly vscode.WorkspaceFolder[],
  storeWrites: (root: string) => StoreWrites | undefined = () => undefined,
): vscode.McpStdioServerDefinition[] {
  if (!trusted) return [];
  const cli = vscode.Uri.joinPath(vscode.Uri.file(extensionPath), 'dist', 'cli.js').fsPath;
  return folders.map((folder) => {
    const label = folders.length === 1 ? 'Loop Ledger' : `Loop Ledger (${folder.name})`;
    // The extension host may be Electron: this makes its binary run as plain Node.
    const storeFlags = (storeWrites(folder.uri.fsPath)?.cliFlags ?? []).flatMap(([flag, value]) => [
      `--${flag}`,
      value,
    ]);
    const definition = new vscode.McpStdioServerDefinition(
      label,
      process.execPath,
      [cli, 'mcp', '--root', folder.uri.fsPath, ...storeFlags],
      { ELECTRON_RUN_AS_NODE: '1' },
    );
    definition.cwd = folder.uri;
    return definition;
  });
}

/**
 * The definition about to be started, with the store's password in its environment when the
 * window uses a store that has one; undefined (not started) in an untrusted workspace.
 */
export async function resolveServer(
  server: vscode.McpStdioServerDefinition,
  trusted: boolean,
  storeWrites: (root: string) => StoreWrites | undefined,
): Promise<vscode.McpStdioServerDefinition | undefined> {
  if (!trusted) return undefined;
  const store = server.cwd ? storeWrites(server.cwd.fsPath) : undefined;
  const password = store ? (await store.childEnv()).PGPASSWORD : undefined;
  if (password !== undefined) server.env = { ...server.env, PGPASSWORD: password };
  return server;
}

export function registerMcpProvider(
  context: vscode.ExtensionContext,
  trust: TrustGate,
  storeWrites: (root: string) => StoreWrites | undefined,
  observe?: (provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>) => void,
): void {
  const changed = new vscode.EventEmitter<void>();
  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () =>
      serverDefinitions(
        context.extensionPath,
        trust.isTrusted,
        vscode.workspace.workspaceFolders ?? [],
        storeWrites,
      ),
    resolveMcpServerDefinition: (server) => resolveServer(server, trust.isTrusted, storeWrites),
  };
  observe?.(provider);
  context.subscriptions.push(
    changed,
    vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(STORE_SETTING) || event.affectsConfiguration(PROJECT_SETTING))
        changed.fire();
    }),
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
  );
}
