import type { TrustGate } from '../workspace/trust';
import * as vscode from 'vscode';
import type { CommandManager } from '../commandManager';
import { CliHistory } from '../commands/cliHistory';
import type { PrompterSlot } from '../input';
import type { SessionsApi } from '../sessions/feature';
import { EngineeringCodeLens } from './engineeringCodeLens';
import { EngineeringCompletion } from './engineeringCompletion';
import { EngineeringDiagnostics } from './engineeringDiagnostics';
import { ENGINEERING_SELECTOR } from './engineeringDocuments';
import { EngineeringQuickFixes } from './engineeringQuickFixes';
import { OpenEngineeringLoopCommand } from './openEngineeringLoop';

/** The `.loop.md` contract editor: diagnostics, quick fixes, completion, CodeLens and its command. */
export function registerEngineeringEditor(
  context: vscode.ExtensionContext,
  commands: CommandManager,
  services: { prompter: PrompterSlot; output: vscode.OutputChannel; trust: TrustGate } & SessionsApi,
): EngineeringDiagnostics {
  const diagnostics = new EngineeringDiagnostics();
  context.subscriptions.push(
    diagnostics,
    vscode.languages.registerCodeActionsProvider(
      ENGINEERING_SELECTOR,
      new EngineeringQuickFixes(diagnostics),
      {
        providedCodeActionKinds: EngineeringQuickFixes.providedCodeActionKinds,
      },
    ),
    vscode.languages.registerCompletionItemProvider(
      ENGINEERING_SELECTOR,
      new EngineeringCompletion(),
      ':',
      ' ',
    ),
    vscode.languages.registerCodeLensProvider(ENGINEERING_SELECTOR, new EngineeringCodeLens()),
  );
  commands.register(
    new OpenEngineeringLoopCommand({
      prompter: services.prompter,
      sessions: services.sessions,
      trust: services.trust,
      output: services.output,
      cliHistory: new CliHistory(),
      now: () => new Date(),
    }),
  );
  return diagnostics;
}
