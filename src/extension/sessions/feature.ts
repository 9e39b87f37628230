import type * as vscode from 'vscode';
import type { CommandManager } from '../commandManager';
import { registerSessionCommands } from '../commands/register';
import type { PrompterSlot } from '../input';
import { registerStatusBar } from '../statusBar/statusBarItem';
import { registerNotifications } from '../notifications/register';
import type { AttentionObserver } from '../notifications/notifier';
import { registerLedgerStore, type StoreApi } from '../store/register';
import type { TrustGate } from '../workspace/trust';
import { registerSessions } from './register';
import { openStartupSession } from './startupSession';
import type { SessionsTreeProvider } from './treeProvider';
import { ShowOlderIterationsCommand } from './showOlder';

/** What the sessions feature adds to the API `activate` returns. */
export interface SessionsApi {
  readonly sessions: SessionsTreeProvider;
  /** Whether the ledger-folder poll runs (only while the view is visible and ledgers exist). */
  readonly ledgerPoll: { readonly running: boolean };
  /** The ledger store the settings choose (PostgreSQL), and its connection state. */
  readonly store: StoreApi;
}

/** The Sessions view, its watcher, the session commands, the status bar item and the notifications. */
export function registerSessionsFeature(
  context: vscode.ExtensionContext,
  commands: CommandManager,
  prompter: PrompterSlot,
  output: vscode.OutputChannel,
  trust: TrustGate,
  attention?: AttentionObserver,
): SessionsApi {
  const sessions = registerSessions(context);
  registerNotifications(context, sessions.provider, sessions.view, () => trust.isTrusted, attention);
  registerSessionCommands(commands, {
    prompter,
    sessions: sessions.provider,
    output,
    trust,
    selection: () => sessions.view.selection,
  });
  commands.register(new ShowOlderIterationsCommand(sessions.provider));
  registerStatusBar(context, sessions);
  // Before the first read: a PostgreSQL store in the settings is what the tree reads.
  const store = registerLedgerStore(context, commands, sessions, trust);
  // The status bar follows the newest open session: read the ledgers once, off the activation path.
  void sessions.provider.ready();
  void openStartupSession(sessions.provider, sessions.view).catch(() => undefined);
  return { sessions: sessions.provider, ledgerPoll: sessions.poller, store };
}
