// The overview and dashboard pages, in the shared webview shell (nothing by default; the script
// only with this page's nonce; styles only from the extension's own files; no images, no fonts,
// nothing remote) and the built app, which reads which page it is from `data-page`.
import * as vscode from 'vscode';
import { escapeHtml, pageNonce, webviewPage } from '../webviewPage';

/** The only folder the page may load from: the built webview apps. */
export function overviewResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')];
}

export function overviewHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  page: 'overview' | 'dashboard',
  title: string,
): string {
  const nonce = pageNonce();
  const asset = (name: string) =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', name)).toString();
  return webviewPage({
    cspSource: webview.cspSource,
    language: vscode.env.language,
    title,
    allow: { script: true },
    nonce,
    head: `<link rel="stylesheet" href="${asset('overview.css')}">`,
    bodyAttributes: `data-page="${page}"`,
    body: `<main id="app"><p>${escapeHtml(vscode.l10n.t('Loading…'))}</p></main>
<script type="module" nonce="${nonce}" src="${asset('overview.js')}"></script>`,
  });
}
