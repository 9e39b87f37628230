import type * as vscode from 'vscode';
import type { TrustGate } from '../workspace/trust';
import type { CommandManager } from '../commandManager';
import type { PrompterSlot } from '../input';
import type { SessionsApi } from '../sessions/feature';
import { RepeatUntilSettledCommand } from './repeatCommand';

/** "Repeat Until Settled…" (palette and the session's context menu). */
export function registerRepeat(
  context: vscode.ExtensionContext,
  commands: CommandManager,
  services: { prompter: PrompterSlot; output: vscode.OutputChannel; trust: TrustGate } & SessionsApi,
): void {
  commands.register(
    new RepeatUntilSettledCommand({
      prompter: services.prompter,
      sessions: services.sessions,
      trust: services.trust,
      output: services.output,
      memory: context.workspaceState,
    }),
  );
}
