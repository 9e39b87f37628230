// One critic-brief panel: the webview, the gate its messages pass, and what the host does for an
// accepted message (open a file in the diff editor, record the verdict, export the packet). The
// packet shown is the one the engine assembled; the panel never edits it.
import * as vscode from 'vscode';
import { EXIT_MEANING, type ExitCode } from '../../engine/refusal';
import { splitDiff } from '../../shared/diff-files';
import type { FromWebview, PanelState, RecordView, ToWebview } from '../../shared/protocol';
import { inUiWords } from '../findingWords';
import { exportPacket } from './exportPacket';
import { diffSides } from './gitRevisionDocuments';
import { briefWordTable } from './briefWords';
import { MessageGate } from './messageGate';
import { localResourceRoots, panelHtml } from './panelHtml';
import { recordVerdict } from './recordVerdict';
import type { StoreWrites } from '../sessions/sessionSource';

export const BRIEF_VIEW_TYPE = 'loopLedger.briefPanel';

/** What every panel shares: where the extension and the workspace are, and where to log. */
export interface PanelServices {
  readonly extensionUri: vscode.Uri;
  readonly output: vscode.OutputChannel;
  /** False in an untrusted workspace: the panel then records and writes nothing. */
  readonly isTrusted: () => boolean;
  /**
   * Where the ledger under a folder lives: a PostgreSQL store the window uses (its writes), or
   * undefined for the files. Asked at each write, so a verdict goes where the window is now.
   */
  readonly storeWrites: (root: string) => StoreWrites | undefined;
}

/** What `receive` did with one message; tests read it, the webview never sees it. */
export type ReceiveResult =
  { accepted: true; type: FromWebview['type'] } | { accepted: false; reason: string };

export class BriefPanel implements vscode.Disposable {
  private readonly gate: MessageGate;
  private readonly oldPaths: Map<string, string | null>;
  private readonly posted = new vscode.EventEmitter<ToWebview>();
  private readonly disposed = new vscode.EventEmitter<void>();
  /** Every message this panel posts to its webview (integration tests listen here). */
  readonly onDidPost = this.posted.event;
  readonly onDidDispose = this.disposed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private closed = false;

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private state: PanelState,
    readonly root: string,
    private readonly services: PanelServices,
  ) {
    const files = splitDiff(state.packet.diff);
    this.oldPaths = new Map(files.map((f) => [f.path, f.oldPath]));
    this.gate = new MessageGate({ briefId: state.packet.brief_id, diffPaths: new Set(this.oldPaths.keys()) });
    if (state.spent) this.gate.markSpent();
    panel.webview.options = {
      enableScripts: true,
      localResourceRoots: localResourceRoots(services.extensionUri),
    };
    panel.webview.html = panelHtml(panel.webview, services.extensionUri);
    this.updateTitle();
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
      this.posted,
    );
  }

  static create(state: PanelState, root: string, services: PanelServices): BriefPanel {
    const panel = vscode.window.createWebviewPanel(
      BRIEF_VIEW_TYPE,
      vscode.l10n.t('Critic brief'),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { enableScripts: true, localResourceRoots: localResourceRoots(services.extensionUri) },
    );
    return new BriefPanel(panel, state, root, services);
  }

  /** Adopts a panel VS Code restored after a reload (see briefPanels.ts). */
  static revive(
    panel: vscode.WebviewPanel,
    state: PanelState,
    root: string,
    services: PanelServices,
  ): BriefPanel {
    return new BriefPanel(panel, state, root, services);
  }

  get briefId(): string {
    return this.state.packet.brief_id;
  }

  get session(): string {
    return this.state.session;
  }

  get currentState(): PanelState {
    return this.state;
  }

  /** Handles one message from the webview: through the gate, then the action. */
  async receive(raw: unknown): Promise<ReceiveResult> {
    const decision = this.gate.check(raw);
    if ('reject' in decision) {
      this.log(vscode.l10n.t('ignored a message from the panel — {0}', decision.reject));
      if (decision.requestId)
        this.post({ type: 'rejected', requestId: decision.requestId, reason: decision.reject });
      return { accepted: false, reason: decision.reject };
    }
    const message = decision.accept;
    switch (message.type) {
      case 'ready':
        this.post({
          type: 'show',
          state: { ...this.state, canRecord: this.services.isTrusted() },
          keep: { root: this.root, session: this.session, briefId: this.briefId },
          words: briefWordTable(),
        });
        break;
      case 'openDiff':
        await this.openDiff(message.requestId, message.path);
        break;
      case 'submitVerdict':
        await this.submitVerdict(message);
        break;
      case 'exportPacket':
        await this.export(message.requestId);
        break;
    }
    return { accepted: true, type: message.type };
  }

  private async openDiff(requestId: string, path: string): Promise<void> {
    const { left, right, title } = diffSides(
      this.root,
      this.state.change,
      path,
      this.oldPaths.get(path) ?? null,
    );
    try {
      await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
      this.post({ type: 'openDiffResult', requestId, ok: true, message: '' });
    } catch (error) {
      this.post({
        type: 'openDiffResult',
        requestId,
        ok: false,
        message: vscode.l10n.t('Could not open {0}: {1}', path, String(error)),
      });
    }
  }

  private async submitVerdict(message: Extract<FromWebview, { type: 'submitVerdict' }>): Promise<void> {
    const { requestId } = message;
    if (!this.services.isTrusted()) {
      this.gate.settleVerdict(false);
      const reason = vscode.l10n.t('this workspace is not trusted; Loop Ledger records nothing here');
      this.log(vscode.l10n.t('did not record a verdict — {0}', reason));
      this.post({ type: 'rejected', requestId, reason });
      return;
    }
    // On a store window the verdict goes to the store (a panel from before the switch too: the
    // engine then refuses a brief the store's ledger does not hold as pending).
    const outcome = await recordVerdict(
      this.root,
      this.session,
      this.briefId,
      message.form,
      this.services.storeWrites(this.root),
    );
    const exitCode = outcome.exitCode as ExitCode;
    const recorded = exitCode === 0 && outcome.payload !== undefined;
    this.gate.settleVerdict(recorded);
    const record = recorded ? (outcome.payload as unknown as RecordView) : undefined;
    this.log(
      recorded
        ? vscode.l10n.t(
            'recorded {0} for brief {1} as iteration {2} of {3}',
            message.form.verdict,
            this.briefId,
            record?.n ?? '?',
            this.session,
          )
        : vscode.l10n.t(
            'verdict refused (exit {0}): {1}',
            exitCode,
            outcome.findings.map(inUiWords).join(' '),
          ),
    );
    this.post({
      type: 'verdictResult',
      requestId,
      exitCode,
      meaning: EXIT_MEANING[exitCode] ?? '',
      findings: outcome.findings.map((f) => ({ message: inUiWords(f), code: f.code })),
      record,
    });
    if (recorded) {
      this.state = {
        ...this.state,
        spent: { reason: vscode.l10n.t('verdict recorded as iteration {0}.', record?.n ?? '?'), record },
      };
      this.updateTitle();
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Loop Ledger: {0} recorded for {1} (iteration {2}); brief {3} is spent.',
          message.form.verdict,
          this.session,
          record?.n ?? '?',
          this.briefId,
        ),
      );
    }
  }

  async export(requestId?: string): Promise<{ markdown: string; json: string } | undefined> {
    if (!this.services.isTrusted()) {
      const reason = vscode.l10n.t('this workspace is not trusted; Loop Ledger writes nothing here');
      if (requestId) this.post({ type: 'exportResult', requestId, ok: false, message: reason });
      return undefined;
    }
    try {
      const written = await exportPacket(this.root, this.state);
      if (requestId) this.post({ type: 'exportResult', requestId, ok: true, message: written.markdown });
      this.log(
        vscode.l10n.t('exported brief {0} to {1} and {2}', this.briefId, written.markdown, written.json),
      );
      void offerCopy(written.markdown);
      return written;
    } catch (error) {
      const reason = vscode.l10n.t(
        'export failed: {0}',
        error instanceof Error ? error.message : String(error),
      );
      this.log(reason);
      if (requestId) this.post({ type: 'exportResult', requestId, ok: false, message: reason });
      return undefined;
    }
  }

  reveal(): void {
    this.panel.reveal();
  }

  private post(message: ToWebview): void {
    // A verdict's write may settle after the panel closed (it retries while a CLI holds the lock).
    if (this.closed) return;
    this.posted.fire(message);
    void this.panel.webview.postMessage(message);
  }

  private updateTitle(): void {
    if (this.closed) return;
    const id = this.briefId.slice(0, 8);
    this.panel.title = this.state.spent
      ? vscode.l10n.t('Critic brief {0} (spent)', id)
      : vscode.l10n.t('Critic brief {0}', id);
  }

  private log(line: string): void {
    this.services.output.appendLine(`[brief ${this.briefId}] ${line}`);
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

async function offerCopy(markdownPath: string): Promise<void> {
  const copy = vscode.l10n.t('Copy Packet');
  const open = vscode.l10n.t('Open');
  const shown = vscode.workspace.asRelativePath(markdownPath, false);
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('Loop Ledger: packet exported to {0}.', shown),
    copy,
    open,
  );
  if (choice === copy) {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(markdownPath));
    await vscode.env.clipboard.writeText(new TextDecoder().decode(bytes));
  } else if (choice === open) {
    await vscode.window.showTextDocument(vscode.Uri.file(markdownPath));
  }
}
