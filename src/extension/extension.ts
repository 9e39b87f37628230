import * as vscode from 'vscode';
import { CommandManager } from './commandManager';
import { ShowLedgerFolderCommand } from './commands/showLedgerFolder';
import { SESSIONS_VIEW_ID, SessionsTreeProvider } from './views/sessionsView';

/** What `activate` returns to other extensions and to the integration tests. */
export interface LoopLedgerApi {
  /** Milliseconds `activate` itself took, measured by the extension. */
  readonly activationMs: number;
}

export function activate(context: vscode.ExtensionContext): LoopLedgerApi {
  const started = performance.now();
  const output = vscode.window.createOutputChannel('Loop Ledger');
  context.subscriptions.push(output);

  const commands = new CommandManager();
  context.subscriptions.push(commands);
  commands.register(new ShowLedgerFolderCommand());

  context.subscriptions.push(
    vscode.window.registerTreeDataProvider(SESSIONS_VIEW_ID, new SessionsTreeProvider()),
  );

  const activationMs = Math.round((performance.now() - started) * 100) / 100;
  output.appendLine(`Loop Ledger activated in ${activationMs} ms`);
  return { activationMs };
}

export function deactivate(): void {
  // Every registration lives in context.subscriptions, which VS Code disposes.
}
