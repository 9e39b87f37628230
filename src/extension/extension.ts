import * as vscode from 'vscode';
import { CommandManager } from './commandManager';
import { ShowLedgerFolderCommand } from './commands/showLedgerFolder';
import { registerBriefPanel } from './brief/register';
import { registerContractEditor } from './contract/registerContractEditor';
import { registerEngineeringEditor } from './engineering/register';
import { createPrompterSlot, type PrompterSlot } from './input';
import { registerSessionsFeature, type SessionsApi } from './sessions/feature';

/** What `activate` returns to other extensions and to the integration tests. */
export interface LoopLedgerApi extends SessionsApi {
  /** Milliseconds `activate` itself took, measured by the extension. */
  readonly activationMs: number;
  /** The Prompter commands ask through; tests swap in a ScriptedPrompter with `prompter.use(...)`. */
  readonly prompter: PrompterSlot;
}

export function activate(context: vscode.ExtensionContext): LoopLedgerApi {
  const started = performance.now();
  const output = vscode.window.createOutputChannel('Loop Ledger');
  context.subscriptions.push(output);

  const prompter = createPrompterSlot();
  const commands = new CommandManager();
  context.subscriptions.push(commands);
  commands.register(new ShowLedgerFolderCommand());
  registerContractEditor(context, commands, prompter);
  registerBriefPanel(context, commands, prompter, output);

  const sessions = registerSessionsFeature(context, commands, prompter, output);
  registerEngineeringEditor(context, commands, { prompter, output, ...sessions });

  const activationMs = Math.round((performance.now() - started) * 100) / 100;
  output.appendLine(`Loop Ledger activated in ${activationMs} ms`);
  return { activationMs, prompter, ...sessions };
}

export function deactivate(): void {
  // Every registration lives in context.subscriptions, which VS Code disposes.
}
