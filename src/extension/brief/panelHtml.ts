// The panel's page, in the shared webview shell (nothing by default; the script only with this
// page's nonce; styles, fonts and images only from the extension's own files) and the built app.
import * as vscode from 'vscode';
import { escapeHtml, pageNonce, webviewPage } from '../webviewPage';

/** The folders the webview may load from: the built panel app and the media folder. */
export function localResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = pageNonce();
  const asset = (name: string) =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', name)).toString();
  return webviewPage({
    cspSource: webview.cspSource,
    language: vscode.env.language,
    title: vscode.l10n.t('Critic brief'),
    allow: { fonts: true, images: true, script: true },
    nonce,
    head: `<link rel="stylesheet" href="${asset('brief.css')}">`,
    body: `<div id="app"><p>${escapeHtml(vscode.l10n.t('Loading the critic brief…'))}</p></div>
<script type="module" nonce="${nonce}" src="${asset('brief.js')}"></script>`,
  });
}

/**
 * The page of a restored panel whose brief cannot be shown again: no script at all, only the
 * reason and what to do. The reason is text, escaped, never markup.
 */
export function unrestorableHtml(webview: vscode.Webview, extensionUri: vscode.Uri, reason: string): string {
  const css = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'brief.css'));
  const title = vscode.l10n.t('This critic brief cannot be shown again');
  const next = vscode.l10n.t('Run "Loop Ledger: Assemble Critic Brief" to assemble the brief again.');
  return webviewPage({
    cspSource: webview.cspSource,
    language: vscode.env.language,
    title,
    allow: { fonts: true },
    viewport: false,
    head: `<link rel="stylesheet" href="${css.toString()}">`,
    bodyAttributes: 'data-unrestorable="true"',
    body: `<h1>${escapeHtml(title)}</h1>
<p id="unrestorable-reason">${escapeHtml(reason)}</p>
<p>${escapeHtml(next)}</p>`,
  });
}
