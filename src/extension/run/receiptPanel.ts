// The receipt viewer: one webview panel per receipt file. Every message from the page is parsed
// (src/shared/receipt-protocol.ts) and a path is acted on only when the receipt names it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ReceiptFromWebview } from '../../shared/receipt-protocol';
import { revisionUri } from '../brief/gitRevisionDocuments';
import { receiptHtml } from './receiptHtml';
import { receiptModel, type ReceiptModel } from './receiptModel';

export const RECEIPT_VIEW_TYPE = 'loopLedger.receiptPanel';

export class ReceiptPanels implements vscode.Disposable {
  private readonly panels = new Map<string, { panel: vscode.WebviewPanel; model: ReceiptModel }>();
  /** Messages the gate refused (tests read it). */
  readonly rejected: string[] = [];

  async show(
    root: string,
    receiptFile: string,
  ): Promise<{ panel: vscode.WebviewPanel; model: ReceiptModel }> {
    const model = receiptModel(JSON.parse(await readFile(receiptFile, 'utf8')) as Record<string, unknown>);
    const existing = this.panels.get(receiptFile);
    if (existing) {
      existing.model = model;
      existing.panel.webview.html = receiptHtml(model, existing.panel.webview.cspSource, vscode.env.language);
      existing.panel.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      RECEIPT_VIEW_TYPE,
      vscode.l10n.t('Receipt: {0} {1}', model.verdict, model.runId),
      vscode.ViewColumn.Active,
      { enableScripts: true, localResourceRoots: [] },
    );
    const entry = { panel, model };
    this.panels.set(receiptFile, entry);
    panel.webview.html = receiptHtml(model, panel.webview.cspSource, vscode.env.language);
    panel.webview.onDidReceiveMessage((raw: unknown) => void this.handle(root, receiptFile, entry, raw));
    panel.onDidDispose(() => this.panels.delete(receiptFile));
    return entry;
  }

  /** The gate: schema first, then the path must be one the receipt names. */
  async handle(
    root: string,
    receiptFile: string,
    entry: { model: ReceiptModel },
    raw: unknown,
  ): Promise<boolean> {
    const parsed = ReceiptFromWebview.safeParse(raw);
    if (!parsed.success) {
      this.rejected.push('malformed message');
      return false;
    }
    const message = parsed.data;
    if (message.type === 'refresh') {
      await this.show(root, receiptFile);
      return true;
    }
    if (!entry.model.openable.includes(message.path)) {
      this.rejected.push(`path not named by the receipt: ${message.path}`);
      return false;
    }
    const file = vscode.Uri.file(join(root, message.path));
    if (message.type === 'openFile') {
      await vscode.window.showTextDocument(file, { preview: true });
    } else {
      await vscode.commands.executeCommand(
        'vscode.diff',
        revisionUri(root, 'HEAD', message.path),
        file,
        vscode.l10n.t('{0} (HEAD ↔ run)', message.path),
      );
    }
    return true;
  }

  dispose(): void {
    for (const { panel } of this.panels.values()) panel.dispose();
    this.panels.clear();
  }
}
