// The receipt viewer's page: rendered by the host from the model (every value escaped), a strict
// Content-Security-Policy with a nonce, and a few lines of script that only post messages.
import { randomBytes } from 'node:crypto';
import type { ReceiptModel } from './receiptModel';

function esc(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

const BADGE: Record<string, string> = { PASS: 'pass', NEEDS_CHANGES: 'needs', BLOCKED: 'blocked' };

function link(action: 'openFile' | 'openDiff', path: string, label: string): string {
  return `<button class="link" data-action="${action}" data-path="${esc(path)}">${esc(label)}</button>`;
}

export function receiptHtml(model: ReceiptModel, cspSource: string): string {
  const nonce = randomBytes(18).toString('base64url');
  const csp = [
    "default-src 'none'",
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  const files = model.files.length
    ? model.files
        .map(
          (f) =>
            `<li class="${f.inScope ? 'in' : 'out'}">${f.inScope ? 'in scope' : 'OUT OF SCOPE'} · ${link('openDiff', f.path, f.path)}</li>`,
        )
        .join('')
    : '<li>none</li>';
  const checks = model.checks.length
    ? model.checks
        .map(
          (c, i) => `<tr class="${c.returncode === 0 ? 'ok' : 'bad'}">
<td>${i + 1}</td><td><code>${esc(c.command)}</code></td><td>${esc(c.words)}${c.timedOut ? ' ⏱' : ''}</td>
<td><pre>${esc(c.stdoutExcerpt)}</pre>${c.stdout ? link('openFile', c.stdout, 'full stdout') : ''}</td>
<td><pre>${esc(c.stderrExcerpt)}</pre>${c.stderr ? link('openFile', c.stderr, 'full stderr') : ''}</td></tr>`,
        )
        .join('')
    : '<tr><td colspan="5">No check ran (a run without checks cannot PASS).</td></tr>';
  const findings = model.reviewer.findings.length
    ? model.reviewer.findings.map((f) => `<li>${esc(f)}</li>`).join('')
    : '<li>none</li>';
  const validator = model.validatorErrors.length
    ? `<p class="bad">LOOP RECEIPT INVALID</p><ul>${model.validatorErrors.map((e) => `<li>${esc(e)}</li>`).join('')}</ul>`
    : '<p class="ok">LOOP RECEIPT VALID</p>';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Receipt ${esc(model.runId)}</title>
<style nonce="${nonce}">
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 1em 2em; }
.badge { display: inline-block; padding: 2px 10px; border-radius: 10px; font-weight: bold; color: #fff; }
.badge.pass { background: #2e7d32; } .badge.needs { background: #b26a00; } .badge.blocked { background: #c62828; }
.ok { color: var(--vscode-testing-iconPassed, #2e7d32); } .bad { color: var(--vscode-errorForeground, #c62828); }
li.out { color: var(--vscode-errorForeground, #c62828); font-weight: bold; }
table { border-collapse: collapse; width: 100%; } td, th { border: 1px solid var(--vscode-panel-border, #8884); padding: 4px; vertical-align: top; text-align: left; }
pre { white-space: pre-wrap; max-height: 8em; overflow: auto; margin: 0; }
button.link { background: none; border: none; color: var(--vscode-textLink-foreground); cursor: pointer; padding: 0; text-decoration: underline; }
</style></head>
<body>
<h1><span class="badge ${BADGE[model.verdict] ?? 'blocked'}" id="verdict">${esc(model.verdict)}</span> ${esc(model.stopReason)}</h1>
<p id="reason">${esc(model.reasonWords)}</p>
<p><b>Run</b> ${esc(model.runId)} · ${esc(model.attempts)}</p>
<p><b>Objective</b> ${esc(model.objective)}</p>
<h2>Changed files</h2><ul id="files">${files}</ul>
<h2>Checks</h2><table id="checks"><tr><th>#</th><th>command</th><th>result</th><th>stdout</th><th>stderr</th></tr>${checks}</table>
<h2>Reviewer: ${esc(model.reviewer.verdict)}${model.reviewer.editedFiles ? ' (edited files)' : ''}</h2><ul id="findings">${findings}</ul>
<h2>Final diff</h2><p>${model.finalDiff ? link('openFile', model.finalDiff, model.finalDiff) : 'none (the run stopped before the checks)'}</p>
<h2>Validator</h2><div id="validator">${validator}</div>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
document.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-action]');
  if (button) vscode.postMessage({ type: button.dataset.action, path: button.dataset.path });
});
</script>
</body></html>`;
}
