// One session overview: the webview, the gate its messages pass, and the series prepared for it.
// It follows the Sessions tree (the tree's file watcher and folder poll re-read a ledger any
// process writes, and the overview redraws when the tree does), so the two never disagree; a small
// ledger is drawn from the tree's own read, a large one is read and prepared by the overview's
// worker thread (overviewRunner.ts), so the extension host never parses it for the overview.
import * as vscode from 'vscode';
import type { FromOverview, SavedOverview, ToOverview } from '../../shared/overview-protocol';
import type { OverviewCheckpoints } from '../checkpoints/overviewActions';
import type { SessionEntry } from '../sessions/sessionEntry';
import type { SessionsTreeProvider } from '../sessions/treeProvider';
import { overviewHtml, overviewResourceRoots } from './overviewHtml';
import { OverviewGate } from './overviewGate';
import type { OverviewRunner } from './overviewRunner';
import { overviewWordTable } from './overviewWords';
import { withKindFacts } from '../../engine/overview/kind-facts';
import type { OverviewModel } from '../../engine/overview/model';
import { taskPathsOf } from '../workorders/model';
import { readKindFacts } from './kindFactsRead';

export const OVERVIEW_VIEW_TYPE = 'loopLedger.sessionOverview';
/** About the chart width in pixels, until the page says how wide it is. */
const DEFAULT_BUCKETS = 400;
/** How long a search for the folder's work-order files is reused. */
const TASKS_KEPT_MS = 5_000;

export interface OverviewServices {
  readonly extensionUri: vscode.Uri;
  readonly output: vscode.OutputChannel;
  readonly sessions: SessionsTreeProvider;
  /** Prepares the model off the host's thread when the ledger is large. */
  readonly runner: OverviewRunner;
  /** Shows a critic brief of this session in the brief panel. */
  openBrief(root: string, session: string, briefId: string): Promise<void>;
  /** The checkpoint actions of an iteration (the Sessions tree's commands); absent: none offered. */
  readonly checkpoints?: OverviewCheckpoints;
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
  /** The numbers of the records of the model shown (the gate admits only these). */
  private numbers: Float64Array = new Float64Array(0);
  /** Bumped per redraw: an answer that arrives after a newer redraw started is dropped. */
  private drawing = 0;
  private buckets = DEFAULT_BUCKETS;
  private ready = false;
  /** Whether a complete model or a problem was posted (later draws are redraws). */
  private drawn = false;
  private closed = false;
  private tasks: { at: number; paths: Promise<string[]> } | undefined;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly key: SavedOverview,
    private readonly services: OverviewServices,
  ) {
    this.gate = new OverviewGate({
      hasIteration: (n) => this.hasIteration(n),
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
        this.post({ type: 'words', words: overviewWordTable() });
        // The tree's read is what keeps the overview live; the first model does not wait for it.
        this.services.sessions
          .ready()
          .catch((error: unknown) => this.log(`the Sessions view could not read: ${String(error)}`));
        this.entry = this.services.sessions.findSession(this.key.root, this.key.session)?.entry;
        await this.show();
        break;
      case 'showIteration': {
        const iteration = await this.iteration(message.n);
        if (!iteration) {
          this.post({
            type: 'rejected',
            requestId: message.requestId,
            reason: `unknown iteration: ${message.n} is not in this ledger`,
          });
          break;
        }
        const checkpoint =
          this.services.checkpoints?.offers(this.key.root, this.key.session, message.n) ?? false;
        this.post({
          type: 'iteration',
          requestId: message.requestId,
          n: message.n,
          lines: iteration.lines,
          checkpoint,
        });
        break;
      }
      case 'checkpoint': {
        const why =
          (await this.services.checkpoints?.run(
            this.key.root,
            this.key.session,
            message.n,
            message.action,
          )) ?? (this.services.checkpoints ? null : 'checkpoints are not offered here');
        if (why !== null) this.post({ type: 'rejected', requestId: message.requestId, reason: why });
        break;
      }
      case 'openBrief': {
        const brief = (await this.iteration(message.n))?.brief;
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
    if (this.ready) void this.show();
  }

  /** The model, or the reason the ledger cannot be shown: never a blank page. */
  private async show(): Promise<void> {
    const drawing = ++this.drawing;
    const { root, session } = this.key;
    const runner = this.services.runner;
    // The first draw of a long ledger may show a glance at its newest records while the rest is
    // read; a redraw keeps the page as it is until the new model is in.
    const prepared = this.drawn
      ? await runner.overview(root, session, this.buckets, this.entry)
      : await runner.open(root, session, this.buckets, this.entry, (glance) => {
          if (drawing !== this.drawing || glance.kind !== 'model') return;
          this.numbers = glance.numbers;
          this.post({ type: 'overview', model: glance.model, keep: this.key });
        });
    if (drawing !== this.drawing) return; // a newer redraw is under way
    this.drawn = true;
    if (prepared.kind === 'absent') {
      this.post({
        type: 'problem',
        session: this.key.session,
        reason: vscode.l10n.t('There is no ledger for this session in {0} (any more).', this.key.root),
        keep: this.key,
      });
      return;
    }
    if (prepared.kind === 'problem') {
      this.numbers = new Float64Array(0);
      this.post({ type: 'problem', session: prepared.session, reason: prepared.reason, keep: this.key });
      return;
    }
    const model = await this.withFacts(prepared.model);
    if (drawing !== this.drawing) return;
    this.numbers = prepared.numbers;
    this.post({ type: 'overview', model, keep: this.key });
  }

  /**
   * The folder's task folders. A ledger write redraws the page, and a work order writes its
   * ledger several times per attempt: the workspace search is reused for a few seconds.
   */
  private taskPaths(): Promise<string[]> {
    const now = Date.now();
    if (this.tasks && now - this.tasks.at < TASKS_KEPT_MS) return this.tasks.paths;
    const paths = Promise.resolve(
      vscode.workspace.findFiles(
        new vscode.RelativePattern(this.key.root, '**/work-orders/wo-*.md'),
        '**/{node_modules,.git}/**',
        5000,
      ),
    ).then((files) => taskPathsOf(files.map((u) => u.fsPath)));
    this.tasks = { at: now, paths };
    return paths;
  }

  /**
   * A run's phases and receipt, a work order's cap and verdicts, read beside the ledger; when
   * they cannot be read the page still shows the ledger's model (the reason goes to the log).
   */
  private async withFacts(model: OverviewModel): Promise<OverviewModel> {
    if (model.kind !== 'run' && model.kind !== 'work-order') return model;
    try {
      const root = this.key.root;
      const facts = await readKindFacts(root, model, async () => {
        // The cap the window's Run Queue dispatches under, as the Work Orders view shows it.
        const cap = vscode.workspace.getConfiguration('loopLedger.workOrders').get<number>('cap') ?? 3;
        return { taskPaths: await this.taskPaths(), cap };
      });
      return withKindFacts(model, facts);
    } catch (error) {
      this.log(`files beside the ledger not read: ${error instanceof Error ? error.message : String(error)}`);
      return model;
    }
  }

  /** Whether record `n` is in the model shown: records are numbered from 1 in file order, so look there first. */
  private hasIteration(n: number): boolean {
    if (this.numbers[n - 1] === n) return true;
    return this.numbers.includes(n);
  }

  private iteration(n: number): ReturnType<OverviewRunner['iteration']> {
    return this.services.runner.iteration(this.key.root, this.key.session, n, this.entry);
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
