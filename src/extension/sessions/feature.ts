import type * as vscode from 'vscode';
import type { CommandManager } from '../commandManager';
import { registerSessionCommands } from '../commands/register';
import type { PrompterSlot } from '../input';
import { registerStatusBar } from '../statusBar/statusBarItem';
import type { TrustGate } from '../workspace/trust';
import { registerSessions } from './register';
import type { SessionsTreeProvider } from './treeProvider';

/** What the sessions feature adds to the API `activate` returns. */
export interface SessionsApi {
  readonly sessions: SessionsTreeProvider;
  /** Whether the ledger-folder poll runs (only while the view is visible and ledgers exist). */
  readonly ledgerPoll: { readonly running: boolean };
}

/** The Sessions view, its watcher, the session commands and the status bar item. */
export function registerSessionsFeature(
  context: vscode.ExtensionContext,
  commands: CommandManager,
  prompter: PrompterSlot,
  output: vscode.OutputChannel,
  trust: TrustGate,
): SessionsApi {
  const sessions = registerSessions(context);
  registerSessionCommands(commands, { prompter, sessions: sessions.provider, output, trust });
  registerStatusBar(context, sessions);
  // The status bar follows the newest open session: read the ledgers once, off the activation path.
  void sessions.provider.ready();
  return { sessions: sessions.provider, ledgerPoll: sessions.poller };
}
