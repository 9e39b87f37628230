// The open overviews (one per session, revealed again when asked twice) and the dashboard (one),
// opened by their commands and restored by VS Code after a reload. What a restored overview
// kept (root and session) is untrusted input: its root must be a workspace folder and its
// session a valid id, or the page only says why it cannot come back.
import * as vscode from 'vscode';
import { SavedOverview } from '../../shared/overview-protocol';
import { sessionIdProblem } from '../../store';
import { workspaceRoots } from '../workspace/roots';
import { DashboardPanel, type DashboardServices } from './dashboardPanel';
import { OverviewPanel, type OverviewServices } from './overviewPanel';

export type PanelsServices = Omit<OverviewServices, never> & Omit<DashboardServices, 'openOverview'>;

export class OverviewPanels implements vscode.Disposable {
  private readonly overviews = new Map<string, OverviewPanel>();
  private dashboard: DashboardPanel | undefined;

  constructor(private readonly services: PanelsServices) {}

  /** The overview of a session: the open one, revealed, or a new one. */
  openOverview(root: string, session: string): OverviewPanel {
    const existing = this.overviews.get(keyOf(root, session));
    if (existing) {
      existing.reveal();
      return existing;
    }
    return this.trackOverview(OverviewPanel.create({ root, session }, this.services));
  }

  openDashboard(): DashboardPanel {
    if (this.dashboard) {
      this.dashboard.reveal();
      return this.dashboard;
    }
    return this.trackDashboard(DashboardPanel.create(this.dashboardServices()));
  }

  get allOverviews(): readonly OverviewPanel[] {
    return [...this.overviews.values()];
  }

  /** Restores overviews after a reload (registered as their WebviewPanelSerializer). */
  readonly overviewSerializer: vscode.WebviewPanelSerializer<unknown> = {
    deserializeWebviewPanel: async (panel, saved) => {
      const parsed = SavedOverview.safeParse(saved);
      const problem = !parsed.success
        ? vscode.l10n.t('its saved state is missing or malformed.')
        : sessionIdProblem(parsed.data.session) !== null
          ? vscode.l10n.t('its saved state names an invalid session id.')
          : !workspaceRoots().some((folder) => folder.path === parsed.data.root)
            ? vscode.l10n.t('its folder {0} is not a folder of this workspace.', parsed.data.root)
            : null;
      if (problem !== null || !parsed.success) {
        panel.webview.options = { enableScripts: false, localResourceRoots: [] };
        panel.webview.html = `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head><body><p>${escape(
          vscode.l10n.t('This session overview cannot be shown again: {0}', problem ?? ''),
        )}</p></body></html>`;
        return;
      }
      this.trackOverview(new OverviewPanel(panel, parsed.data, this.services));
    },
  };

  readonly dashboardSerializer: vscode.WebviewPanelSerializer<unknown> = {
    deserializeWebviewPanel: async (panel) => {
      if (this.dashboard) {
        panel.dispose();
        return;
      }
      this.trackDashboard(new DashboardPanel(panel, this.dashboardServices()));
    },
  };

  private dashboardServices(): DashboardServices {
    return { ...this.services, openOverview: async (root, session) => this.openOverview(root, session) };
  }

  private trackOverview(panel: OverviewPanel): OverviewPanel {
    const key = keyOf(panel.root, panel.session);
    this.overviews.set(key, panel);
    panel.onDidDispose(() => {
      if (this.overviews.get(key) === panel) this.overviews.delete(key);
    });
    return panel;
  }

  private trackDashboard(panel: DashboardPanel): DashboardPanel {
    this.dashboard = panel;
    panel.onDidDispose(() => {
      if (this.dashboard === panel) this.dashboard = undefined;
    });
    return panel;
  }

  dispose(): void {
    for (const panel of [...this.overviews.values()]) panel.dispose();
    this.dashboard?.dispose();
  }
}

function keyOf(root: string, session: string): string {
  return `${root}\0${session}`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
