// Agent mode's ways in: the MCP server definition provider and the language-model tools.
import type * as vscode from 'vscode';
import type { StoreWrites } from '../sessions/sessionSource';
import type { TrustGate } from '../workspace/trust';
import { registerLmTools } from './lmTools';
import { registerMcpProvider } from './mcpProvider';

export function registerAgentTools(
  context: vscode.ExtensionContext,
  trust: TrustGate,
  storeWrites: (root: string) => StoreWrites | undefined,
  onWritten: (root: string, session: string) => Promise<unknown>,
  observeProvider?: (provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>) => void,
): void {
  registerMcpProvider(context, trust, storeWrites, observeProvider);
  registerLmTools(context, trust, storeWrites, onWritten);
}
