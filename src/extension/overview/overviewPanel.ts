// One session overview: the webview, the gate its messages pass, and the series the host
// prepares. It follows the Sessions tree's reading of the ledger (the tree's file watcher and
// folder poll re-read a ledger any process writes), so the overview and the tree never disagree
// and the ledger is read once, asynchronously, for both.
import * as vscode from 'vscode';
import { buildOverview, recordInWords } from '../../engine/overview/model';
import type { IterationRecord } from '../../engine/types';
import type { FromOverview, SavedOverview, ToOverview } from '../../shared/overview-protocol';
import type { SessionEntry } from '../sessions/sessionEntry';
import type { SessionsTreeProvider } from '../sessions/treeProvider';
import { overviewHtml, overviewResourceRoots } from './overviewHtml';
import { OverviewGate } from './overviewGate';

export const OVERVIEW_VIEW_TYPE = 'loopLedger.sessionOverview';
/** About the chart width in pixels, until the page says how wide it is. */
const DEFAULT_BUCKETS = 400;

export interface OverviewServices {
  readonly extensionUri: vscode.Uri;
  readonly output: vscode.OutputChannel;
  readonly sessions: SessionsTreeProvider;
  /** Shows a critic brief of this session in the brief panel. */
  openBrief(root: string, session: string, briefId: string): Promise<void>;
}

export type OverviewReceipt =
  { accepted: true; type: FromOverview['type'] } | { accepted: false; reason: string };

export class OverviewPanel implements vscode.Disposable {
  private readonly gate: OverviewGate;
  private readonly posted = new vscode.EventEmitter<ToOverview>();
  private readonly disposed = new vscode.EventEmitter<void>();
  /** Every message this panel posts (integration tests listen here). */
  readonly onDidPost = this.posted.event;
  readonly onDidDispose = this.disposed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private entry: SessionEntry | undefined;
  private buckets = DEFAULT_BUCKETS;
  private ready = false;
  private closed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly key: SavedOverview,
    private readonly services: OverviewServices,
  ) {
    this.gate = new OverviewGate({
      hasIteration: (n) => this.record(n) !== undefined,
      listsSession: () => false,
    });
    panel.webview.options = {
      enableScripts: true,
      localResourceRoots: overviewResourceRoots(services.extensionUri),
    };
    panel.webview.html = overviewHtml(panel.webview, services.extensionUri, 'overview', this.title());
    panel.title = this.title();
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
      // The tree re-reads a ledger when any process writes it; the overview redraws from that read.
      services.sessions.onDidChangeSessions(() => this.followTree()),
      this.posted,
    );
    this.entry = services.sessions.findSession(key.root, key.session)?.entry;
  }

  static create(key: SavedOverview, services: OverviewServices): OverviewPanel {
    const panel = vscode.window.createWebviewPanel(
      OVERVIEW_VIEW_TYPE,
      key.session,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      {
        enableScripts: true,
        localResourceRoots: overviewResourceRoots(services.extensionUri),
        retainContextWhenHidden: false,
      },
    );
    return new OverviewPanel(panel, key, services);
  }

  get session(): string {
    return this.key.session;
  }

  get root(): string {
    return this.key.root;
  }

  /** Handles one message from the webview: through the gate, then the action. */
  async receive(raw: unknown): Promise<OverviewReceipt> {
    const decision = this.gate.check(raw);
    if ('reject' in decision) {
      this.log(`ignored a message from the overview — ${decision.reject}`);
      if (decision.requestId)
        this.post({ type: 'rejected', requestId: decision.requestId, reason: decision.reject });
      return { accepted: false, reason: decision.reject };
    }
    const message = decision.accept;
    switch (message.type) {
      case 'ready':
        if (message.buckets !== undefined) this.buckets = message.buckets;
        this.ready = true;
        await this.services.sessions.ready();
        this.entry = this.services.sessions.findSession(this.key.root, this.key.session)?.entry;
        this.show();
        break;
      case 'showIteration': {
        const record = this.record(message.n)!;
        this.post({
          type: 'iteration',
          requestId: message.requestId,
          n: message.n,
          lines: recordInWords(record),
        });
        break;
      }
      case 'openBrief': {
        const brief = this.record(message.n)?.critic_brief;
        if (typeof brief !== 'string' || brief === '') {
          this.post({
            type: 'rejected',
            requestId: message.requestId,
            reason: `iteration ${message.n} names no critic brief`,
          });
          break;
        }
        await this.services.openBrief(this.key.root, this.key.session, brief);
        break;
      }
      case 'openOverview':
        break; // refused by the gate: an overview lists no sessions
    }
    return { accepted: true, type: message.type };
  }

  reveal(): void {
    this.panel.reveal();
  }

  private followTree(): void {
    const entry = this.services.sessions.findSession(this.key.root, this.key.session)?.entry;
    if (entry === this.entry) return; // another session changed
    this.entry = entry;
    if (this.ready) this.show();
  }

  /** The model, or the reason the ledger cannot be shown: never a blank page. */
  private show(): void {
    const entry = this.entry;
    if (!entry) {
      this.post({
        type: 'problem',
        session: this.key.session,
        reason: vscode.l10n.t('There is no ledger for this session in {0} (any more).', this.key.root),
        keep: this.key,
      });
      return;
    }
    if (entry.kind === 'broken') {
      this.post({ type: 'problem', session: entry.session, reason: entry.problem, keep: this.key });
      return;
    }
    try {
      this.post({
        type: 'overview',
        model: buildOverview(entry.ledger, entry.status, this.buckets),
        keep: this.key,
      });
    } catch (error) {
      const reason = `unreadable ledger: ${error instanceof Error ? error.message : String(error)}`;
      this.post({ type: 'problem', session: entry.session, reason, keep: this.key });
    }
  }

  private record(n: number): IterationRecord | undefined {
    const entry = this.entry;
    if (entry?.kind !== 'ledger') return undefined;
    const records = entry.ledger.iterations;
    // Records are numbered from 1 in file order; look there first, then search.
    const direct = records[n - 1];
    if (direct && direct.n === n) return direct;
    return records.find((r) => r.n === n);
  }

  private title(): string {
    return vscode.l10n.t('Overview: {0}', this.key.session);
  }

  private post(message: ToOverview): void {
    if (this.closed) return;
    this.posted.fire(message);
    void this.panel.webview.postMessage(message);
  }

  private log(line: string): void {
    this.services.output.appendLine(`[overview ${this.key.session}] ${line}`);
  }

  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.disposed.fire();
    this.disposed.dispose();
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.panel.dispose();
  }
}
