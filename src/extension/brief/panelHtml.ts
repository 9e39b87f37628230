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
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('brief.css')}">
<title>Critic brief</title>
</head>
<body>
<div id="app"><p>Loading the critic brief…</p></div>
<script type="module" nonce="${nonce}" src="${asset('brief.js')}"></script>
</body>
</html>`;
}
