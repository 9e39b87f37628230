import * as vscode from 'vscode';
import { CommandManager } from './commandManager';
import { ShowLedgerFolderCommand } from './commands/showLedgerFolder';
import { registerBriefPanel } from './brief/register';
import { registerContractEditor } from './contract/registerContractEditor';
import { registerEngineeringEditor } from './engineering/register';
import { registerOverview } from './overview/register';
import { overviewCheckpoints } from './checkpoints/overviewActions';
import { registerCheckpoints } from './checkpoints/register';
import { createPrompterSlot } from './input';
import { shareL10nBundle } from './sharedL10n';
import { registerRuns } from './run/register';
import { registerSessionsFeature } from './sessions/feature';
import { loadTestHooks, type ExtensionInternals } from './testing/loadTestHooks';
import { TrustGate } from './workspace/trust';
import { registerRepeat } from './repeat/register';
import { registerWorkOrders } from './workorders/register';
import { registerAgentTools } from './lm/register';
import { locateLedger } from '../store';

/**
 * The integration tests' name for what they observe of the extension. `activate` returns nothing
 * (no other extension gets our internals); the tests read these through the test hooks.
 */
export type LoopLedgerApi = ExtensionInternals;

export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  shareL10nBundle();
  const output = vscode.window.createOutputChannel('Loop Ledger');
  context.subscriptions.push(output);

  // Undefined unless VS Code runs the extension's integration tests (see loadTestHooks.ts).
  const testHooks = loadTestHooks(context);
  const prompter = createPrompterSlot(testHooks && ((standard) => testHooks.prompter(standard)));
  const vscodeTrust = () => vscode.workspace.isTrusted;
  const trust = new TrustGate(testHooks ? testHooks.workspaceTrusted(vscodeTrust) : vscodeTrust);
  const commands = new CommandManager();
  context.subscriptions.push(commands);
  commands.register(new ShowLedgerFolderCommand());
  registerContractEditor(context, commands, prompter);
  // The sessions feature first: it knows whether the window uses a ledger store, which the
  // commands working on the ledger files only (the brief panel among them) refuse.
  const sessions = registerSessionsFeature(context, commands, prompter, output, trust, testHooks?.attention);
  const briefs = registerBriefPanel(context, commands, prompter, output, {
    isTrusted: () => trust.isTrusted,
    storeWrites: (root) => sessions.sessions.storeWrites(root),
  });
  registerRepeat(context, commands, { prompter, output, trust, ...sessions });
  const runs = registerRuns(context, commands, prompter, output, { ...sessions, trust });
  const workOrders = registerWorkOrders(context, commands, prompter, trust, output, (root) =>
    sessions.sessions.storeWrites(root),
  );
  registerEngineeringEditor(context, commands, { prompter, output, trust, ...sessions });
  registerOverview(context, commands, {
    prompter,
    output,
    briefs,
    sessions: sessions.sessions,
    checkpoints: overviewCheckpoints(sessions.sessions, trust),
  });
  registerCheckpoints(context, commands, {
    prompter,
    output,
    trust,
    sessions: sessions.sessions,
    extensionPath: context.extensionPath,
  });
  registerAgentTools(
    context,
    trust,
    (root) => sessions.sessions.storeWrites(root),
    (root, session) =>
      sessions.sessions.storeWrites(root)
        ? sessions.sessions.refreshSession(root, session)
        : sessions.sessions.refreshFile(locateLedger(root, session).readPath),
    testHooks?.mcpProvider,
  );

  const activationMs = Math.round((performance.now() - started) * 100) / 100;
  output.appendLine(vscode.l10n.t('Loop Ledger activated in {0} ms', activationMs));
  testHooks?.observe({ activationMs, workOrders, ...sessions, ...runs });
}

export function deactivate(): void {
  // Every registration lives in context.subscriptions, which VS Code disposes.
}
