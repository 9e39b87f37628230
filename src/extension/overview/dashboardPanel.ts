// The dashboard: every session of the workspace in one table. It lists what the Sessions tree
// has read (the tree re-reads a ledger whenever any process writes it) and redraws when the tree
// changes, at most every DASHBOARD_SETTLE_MS so a burst of writes redraws once.
import * as vscode from 'vscode';
import type { DashboardRow } from '../../engine/overview/dashboard';
import type { ToOverview } from '../../shared/overview-protocol';
import type { SessionsTreeProvider } from '../sessions/treeProvider';
import { currentRows } from './dashboardRows';
import { overviewWordTable } from './overviewWords';
import { overviewHtml, overviewResourceRoots } from './overviewHtml';
import { OverviewGate } from './overviewGate';
import type { OverviewReceipt } from './overviewPanel';

export const DASHBOARD_VIEW_TYPE = 'loopLedger.dashboard';
const DASHBOARD_SETTLE_MS = 150;

export interface DashboardServices {
  readonly extensionUri: vscode.Uri;
  readonly output: vscode.OutputChannel;
  readonly sessions: SessionsTreeProvider;
  openOverview(root: string, session: string): Promise<unknown>;
}

export class DashboardPanel implements vscode.Disposable {
  private readonly gate: OverviewGate;
  private readonly posted = new vscode.EventEmitter<ToOverview>();
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidPost = this.posted.event;
  readonly onDidDispose = this.disposed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private rows: DashboardRow[] = [];
  private ready = false;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly services: DashboardServices,
  ) {
    this.gate = new OverviewGate({
      hasIteration: () => false,
      listsSession: (root, session) => this.rows.some((r) => r.root === root && r.session === session),
    });
    const title = vscode.l10n.t('Loop Ledger Dashboard');
    panel.webview.options = {
      enableScripts: true,
      localResourceRoots: overviewResourceRoots(services.extensionUri),
    };
    panel.webview.html = overviewHtml(panel.webview, services.extensionUri, 'dashboard', title);
    panel.title = title;
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
      services.sessions.onDidChangeSessions(() => this.schedule()),
      this.posted,
    );
  }

  static create(services: DashboardServices): DashboardPanel {
    const panel = vscode.window.createWebviewPanel(
      DASHBOARD_VIEW_TYPE,
      vscode.l10n.t('Loop Ledger Dashboard'),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { enableScripts: true, localResourceRoots: overviewResourceRoots(services.extensionUri) },
    );
    return new DashboardPanel(panel, services);
  }

  async receive(raw: unknown): Promise<OverviewReceipt> {
    const decision = this.gate.check(raw);
    if ('reject' in decision) {
      this.services.output.appendLine(`[dashboard] ignored a message — ${decision.reject}`);
      if (decision.requestId)
        this.post({ type: 'rejected', requestId: decision.requestId, reason: decision.reject });
      return { accepted: false, reason: decision.reject };
    }
    const message = decision.accept;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.post({ type: 'words', words: overviewWordTable() });
        await this.services.sessions.ready();
        this.show();
        break;
      case 'openOverview':
        await this.services.openOverview(message.root, message.session);
        break;
      case 'showIteration':
      case 'openBrief':
        break; // refused by the gate: the dashboard shows no iterations
    }
    return { accepted: true, type: message.type };
  }

  reveal(): void {
    this.panel.reveal();
  }

  private schedule(): void {
    if (!this.ready || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.show();
    }, DASHBOARD_SETTLE_MS);
  }

  private show(): void {
    this.rows = currentRows(this.services.sessions.sessionNodes());
    this.post({ type: 'dashboard', rows: this.rows });
  }

  private post(message: ToOverview): void {
    if (this.closed) return;
    this.posted.fire(message);
    void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    this.disposed.fire();
    this.disposed.dispose();
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.panel.dispose();
  }
}
