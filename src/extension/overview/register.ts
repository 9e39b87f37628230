// Wires the session overview and the dashboard into the extension: two commands, the serializers
// that restore their panels after a reload, and the way an overview opens a critic brief (the
// brief panel's own restore path, which re-reads the kept packet and says when it cannot).
import * as vscode from 'vscode';
import { BRIEF_VIEW_TYPE } from '../brief/briefPanel';
import type { BriefPanels } from '../brief/briefPanels';
import { localResourceRoots } from '../brief/panelHtml';
import type { CommandManager } from '../commandManager';
import type { PrompterSlot } from '../input';
import type { OverviewCheckpoints } from '../checkpoints/overviewActions';
import type { SessionsTreeProvider } from '../sessions/treeProvider';
import { ShowDashboardCommand, ShowSessionOverviewCommand } from './commands';
import { DASHBOARD_VIEW_TYPE } from './dashboardPanel';
import { OVERVIEW_VIEW_TYPE } from './overviewPanel';
import { OverviewPanels } from './overviewPanels';
import { OverviewRunner } from './overviewRunner';

export interface OverviewDeps {
  readonly prompter: PrompterSlot;
  readonly output: vscode.OutputChannel;
  readonly sessions: SessionsTreeProvider;
  readonly briefs: BriefPanels;
  readonly checkpoints?: OverviewCheckpoints;
}

export function registerOverview(
  context: vscode.ExtensionContext,
  commands: CommandManager,
  deps: OverviewDeps,
): OverviewPanels {
  // Large ledgers are read and prepared in the worker thread the Sessions tree reads through
  // (bundled beside the extension): a ledger the tree has read there is not parsed again.
  const runner = new OverviewRunner(
    deps.sessions.reader.channel ??
      vscode.Uri.joinPath(context.extensionUri, 'dist', 'overviewWorker.js').fsPath,
  );
  const panels = new OverviewPanels({
    extensionUri: context.extensionUri,
    output: deps.output,
    sessions: deps.sessions,
    runner,
    openBrief: (root, session, briefId) =>
      openBrief(deps.briefs, context.extensionUri, root, session, briefId),
    checkpoints: deps.checkpoints,
  });
  context.subscriptions.push(
    runner,
    panels,
    vscode.window.registerWebviewPanelSerializer(OVERVIEW_VIEW_TYPE, panels.overviewSerializer),
    vscode.window.registerWebviewPanelSerializer(DASHBOARD_VIEW_TYPE, panels.dashboardSerializer),
  );
  commands.register(new ShowSessionOverviewCommand(panels, deps.sessions, deps.prompter));
  commands.register(new ShowDashboardCommand(panels));
  return panels;
}

/** The brief panel of `briefId`: the open one, or one restored from the packet kept on disk. */
async function openBrief(
  briefs: BriefPanels,
  extensionUri: vscode.Uri,
  root: string,
  session: string,
  briefId: string,
): Promise<void> {
  const open = briefs.all.find((p) => p.briefId === briefId && p.session === session && p.root === root);
  if (open) return open.reveal();
  const panel = vscode.window.createWebviewPanel(
    BRIEF_VIEW_TYPE,
    vscode.l10n.t('Critic brief'),
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
    { enableScripts: true, localResourceRoots: localResourceRoots(extensionUri) },
  );
  await briefs.restore(panel, { root, session, briefId });
}
