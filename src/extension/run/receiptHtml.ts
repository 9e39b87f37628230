// The receipt viewer's page: rendered by the host from the model (every value escaped), a strict
// Content-Security-Policy with a nonce, and a few lines of script that only post messages. The
// page's own words go through l10n.t and are escaped like values; the words the engine explains a
// run with (return codes, stop reasons) and the validator's `LOOP RECEIPT VALID` are the CLI's and
// stay as it writes them.
import * as l10n from '@vscode/l10n';
import { escapeHtml as esc, pageNonce, webviewPage } from '../webviewPage';
import type { ReceiptModel } from './receiptModel';

const BADGE: Record<string, string> = { PASS: 'pass', NEEDS_CHANGES: 'needs', BLOCKED: 'blocked' };

function link(action: 'openFile' | 'openDiff', path: string, label: string): string {
  return `<button class="link" data-action="${action}" data-path="${esc(path)}">${esc(label)}</button>`;
}

/** `language` is VS Code's display language (screen readers pick their voice by it). */
export function receiptHtml(model: ReceiptModel, cspSource: string, language = 'en'): string {
  const nonce = pageNonce();
  const files = model.files.length
    ? model.files
        .map(
          (f) =>
            `<li class="${f.inScope ? 'in' : 'out'}">${esc(f.inScope ? l10n.t('in scope') : l10n.t('OUT OF SCOPE'))} · ${link('openDiff', f.path, f.path)}</li>`,
        )
        .join('')
    : `<li>${esc(l10n.t('none'))}</li>`;
  const checks = model.checks.length
    ? model.checks
        .map(
          (c, i) => `<tr class="${c.returncode === 0 ? 'ok' : 'bad'}">
<td>${i + 1}</td><td><code>${esc(c.command)}</code></td><td>${esc(c.words)}${c.timedOut ? ' ⏱' : ''}</td>
<td><pre>${esc(c.stdoutExcerpt)}</pre>${c.stdout ? link('openFile', c.stdout, l10n.t('full stdout')) : ''}</td>
<td><pre>${esc(c.stderrExcerpt)}</pre>${c.stderr ? link('openFile', c.stderr, l10n.t('full stderr')) : ''}</td></tr>`,
        )
        .join('')
    : `<tr><td colspan="5">${esc(l10n.t('No check ran (a run without checks cannot PASS).'))}</td></tr>`;
  const findings = model.reviewer.findings.length
    ? model.reviewer.findings.map((f) => `<li>${esc(f)}</li>`).join('')
    : `<li>${esc(l10n.t('none'))}</li>`;
  const validator = model.validatorErrors.length
    ? `<p class="bad">LOOP RECEIPT INVALID</p><ul>${model.validatorErrors.map((e) => `<li>${esc(e)}</li>`).join('')}</ul>`
    : '<p class="ok">LOOP RECEIPT VALID</p>';
  const checkHeads = [l10n.t('command'), l10n.t('result'), l10n.t('stdout'), l10n.t('stderr')]
    .map((head) => `<th>${esc(head)}</th>`)
    .join('');
  const reviewer = model.reviewer.editedFiles
    ? l10n.t('Reviewer: {0} (edited files)', model.reviewer.verdict)
    : l10n.t('Reviewer: {0}', model.reviewer.verdict);
  return webviewPage({
    cspSource,
    language,
    title: l10n.t('Receipt {0}', model.runId),
    allow: { inlineStyle: true, script: true },
    nonce,
    head: `<style nonce="${nonce}">
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); background-color: var(--vscode-editor-background); padding: 0 1em 2em; }
.badge { display: inline-block; padding: 2px 10px; border-radius: 10px; font-weight: bold; color: #fff; }
.badge.pass { background: #2e7d32; } .badge.needs { background: #b26a00; } .badge.blocked { background: #c62828; }
.ok { color: var(--vscode-foreground); } .bad { color: var(--vscode-errorForeground, #c62828); }
p.ok { font-weight: bold; border-left: 4px solid var(--vscode-testing-iconPassed, #2e7d32); padding-left: 6px; }
li.out { color: var(--vscode-errorForeground, #c62828); font-weight: bold; }
table { border-collapse: collapse; width: 100%; } td, th { border: 1px solid var(--vscode-panel-border, #8884); padding: 4px; vertical-align: top; text-align: left; }
pre { white-space: pre-wrap; max-height: 8em; overflow: auto; margin: 0; }
button.link { background: none; border: none; color: var(--vscode-textLink-foreground); cursor: pointer; padding: 0; text-decoration: underline; }
</style>`,
    body: `<main>
<h1><span class="badge ${BADGE[model.verdict] ?? 'blocked'}" id="verdict">${esc(model.verdict)}</span> ${esc(model.stopReason)}</h1>
<p id="reason">${esc(model.reasonWords)}</p>
<p><b>${esc(l10n.t('Run'))}</b> ${esc(model.runId)} · ${esc(model.attempts)}</p>
<p><b>${esc(l10n.t('Objective'))}</b> ${esc(model.objective)}</p>
<h2>${esc(l10n.t('Changed files'))}</h2><ul id="files">${files}</ul>
<h2>${esc(l10n.t('Checks'))}</h2><table id="checks"><tr><th>#</th>${checkHeads}</tr>${checks}</table>
<h2>${esc(reviewer)}</h2><ul id="findings">${findings}</ul>
<h2>${esc(l10n.t('Final diff'))}</h2><p>${model.finalDiff ? link('openFile', model.finalDiff, model.finalDiff) : esc(l10n.t('none (the run stopped before the checks)'))}</p>
<h2>${esc(l10n.t('Validator'))}</h2><div id="validator">${validator}</div>
</main>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
document.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-action]');
  if (button) vscode.postMessage({ type: button.dataset.action, path: button.dataset.path });
});
</script>`,
  });
}
