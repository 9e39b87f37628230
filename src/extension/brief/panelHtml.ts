// The panel's page: a strict Content-Security-Policy (nothing by default; scripts only with this
// page's nonce; styles and fonts only from the extension's own files) and the built app.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** The folders the webview may load from: the built panel app and the media folder. */
export function localResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(18).toString('base64url');
  const asset = (name: string) =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', name)).toString();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  const title = vscode.l10n.t('Critic brief');
  const loading = vscode.l10n.t('Loading the critic brief…');
  return `<!DOCTYPE html>
<html lang="${escapeHtml(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('brief.css')}">
<title>${escapeHtml(title)}</title>
</head>
<body>
<div id="app"><p>${escapeHtml(loading)}</p></div>
<script type="module" nonce="${nonce}" src="${asset('brief.js')}"></script>
</body>
</html>`;
}

/**
 * The page of a restored panel whose brief cannot be shown again: no script at all, only the
 * reason and what to do. The reason is text, escaped, never markup.
 */
export function unrestorableHtml(webview: vscode.Webview, extensionUri: vscode.Uri, reason: string): string {
  const csp = ["default-src 'none'", `style-src ${webview.cspSource}`, `font-src ${webview.cspSource}`].join(
    '; ',
  );
  const css = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'brief.css'));
  const title = vscode.l10n.t('This critic brief cannot be shown again');
  const next = vscode.l10n.t('Run "Loop Ledger: Assemble Critic Brief" to assemble the brief again.');
  return `<!DOCTYPE html>
<html lang="${escapeHtml(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<link rel="stylesheet" href="${css.toString()}">
<title>${escapeHtml(title)}</title>
</head>
<body data-unrestorable="true">
<h1>${escapeHtml(title)}</h1>
<p id="unrestorable-reason">${escapeHtml(reason)}</p>
<p>${escapeHtml(next)}</p>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
