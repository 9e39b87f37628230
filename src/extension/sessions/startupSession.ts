// `loopLedger.startup.openSession`: a workspace (the demo `npm start` opens) may name the session
// to show when the window opens — the Loop Ledger view comes forward with that session selected,
// and its overview opens when this build has one.
import * as vscode from 'vscode';
import type { SessionsNode } from './nodes';
import type { SessionsTreeProvider } from './treeProvider';

export const OVERVIEW_COMMAND = 'loopLedger.showSessionOverview';

export async function openStartupSession(
  provider: SessionsTreeProvider,
  view: vscode.TreeView<SessionsNode>,
): Promise<void> {
  const session = vscode.workspace
    .getConfiguration('loopLedger.startup')
    .get<string>('openSession', '')
    .trim();
  if (session === '') return;
  await provider.ready();
  const node = provider.sessionNodes().find((n) => n.entry.session === session);
  if (!node) return;
  await view.reveal(node, { select: true, focus: true, expand: true });
  const commands = await vscode.commands.getCommands(true);
  if (commands.includes(OVERVIEW_COMMAND)) await vscode.commands.executeCommand(OVERVIEW_COMMAND, node);
}
