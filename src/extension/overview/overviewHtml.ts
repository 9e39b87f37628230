// The overview and dashboard pages: a strict Content-Security-Policy (nothing by default; the
// script only with this page's nonce; styles only from the extension's own files; no images, no
// fonts, nothing remote) and the built app, which reads which page it is from `data-page`.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

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
  const nonce = randomBytes(18).toString('base64url');
  const asset = (name: string) =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', name)).toString();
  const csp = ["default-src 'none'", `style-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join(
    '; ',
  );
  const loading = vscode.l10n.t('Loading…');
  return `<!DOCTYPE html>
<html lang="${escapeHtml(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('overview.css')}">
<title>${escapeHtml(title)}</title>
</head>
<body data-page="${page}">
<main id="app"><p>${escapeHtml(loading)}</p></main>
<script type="module" nonce="${nonce}" src="${asset('overview.js')}"></script>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
