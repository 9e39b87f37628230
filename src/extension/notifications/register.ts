import type * as vscode from 'vscode';
import type { SessionsNode } from '../sessions/nodes';
import type { SessionsTreeProvider } from '../sessions/treeProvider';
import { AttentionNotifier, type AttentionObserver } from './notifier';

/** Notifications and the Sessions view's badge, following the tree's ledger watching. */
export function registerNotifications(
  context: vscode.ExtensionContext,
  sessions: SessionsTreeProvider,
  view: vscode.TreeView<SessionsNode>,
  trusted: () => boolean,
  observer?: AttentionObserver,
): AttentionNotifier {
  const notifier = new AttentionNotifier(context.workspaceState, sessions, view, trusted, observer);
  context.subscriptions.push(notifier);
  return notifier;
}
