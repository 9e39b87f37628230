// The critic-brief panel app. It renders what the host sends and turns clicks into protocol
// messages. With setState it keeps only which brief it shows (the host's `keep`: root, session,
// brief id), never the packet: after a reload the host re-reads the packet and sends it again.
// Handshake: the app says `ready` once its listener is attached; the host sends nothing before.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-form-group/index.js';
import '@vscode-elements/elements/dist/vscode-form-helper/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import './brief.css';
import type { FromWebview, PanelState, ToWebview, VerdictForm } from '../src/shared/protocol';
import { diffView } from './diff-view';
import { h } from './dom';
import { packetView } from './packet-view';
import { VerdictFormView } from './verdict-form';
import { toViewModel } from './view-model';
import { useWords, w } from './words';

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

// Marks the benchmark reads (bench/brief-panel.mjs): script start, packet received, rendered.
performance.mark('brief:script');
const vscode = acquireVsCodeApi();
const root = document.getElementById('app')!;
let current: PanelState | undefined;
let form: VerdictFormView | undefined;
let counter = 0;
const nextRequestId = () => `r${Date.now().toString(36)}-${++counter}`;

function header(state: PanelState): HTMLElement {
  return h(
    'header',
    { class: 'panel-header' },
    h('h1', {}, `${w('Critic brief')} `, h('code', { id: 'brief-id' }, state.packet.brief_id)),
    h('span', { class: 'muted' }, w('session {0} · {1}', state.session, state.change.label)),
  );
}

function render(state: PanelState): void {
  current = state;
  const model = toViewModel(state);
  form = new VerdictFormView(model.verdicts, {
    submit: (verdict: VerdictForm) =>
      vscode.postMessage({
        type: 'submitVerdict',
        requestId: nextRequestId(),
        briefId: model.briefId,
        form: verdict,
      }),
    exportPacket: () =>
      vscode.postMessage({ type: 'exportPacket', requestId: nextRequestId(), briefId: model.briefId }),
  });
  // Spent first: it clears the banner when the brief is not spent, and the read-only notice of
  // an untrusted workspace (a restored panel in Restricted Mode) must stay visible after it.
  form.showSpent(model.spent);
  if (!model.canRecord && !model.spent) form.showReadOnly();
  const diff = diffView(model, {
    openInDiffEditor: (path) => vscode.postMessage({ type: 'openDiff', requestId: nextRequestId(), path }),
  });
  const side = h(
    'aside',
    { class: 'side-column', 'aria-label': w('Rubric, scope, verification and verdict') },
    ...packetView(model),
    form.element,
  );
  root.replaceChildren(header(state), h('main', { class: 'columns' }, diff, side));
  document.body.dataset.ready = 'true';
}

/** Whether the host has answered the handshake with the panel's state. */
let answered = false;

function onMessage(message: ToWebview): void {
  switch (message.type) {
    case 'show':
      // Only the first answer counts: a repeated `ready` (below) may draw a second one.
      if (answered) break;
      answered = true;
      vscode.setState(message.keep);
      useWords(message.words);
      performance.mark('brief:show');
      render(message.state);
      performance.mark('brief:rendered');
      break;
    case 'verdictResult':
      if (message.exitCode === 0 && message.record && current) {
        const spent = {
          reason: w('verdict recorded as iteration {0}.', message.record.n),
          record: message.record,
        };
        current = { ...current, spent };
        form?.showSpent(spent);
      } else {
        form?.showRefusal(message.exitCode, message.meaning, message.findings);
      }
      break;
    case 'exportResult':
    case 'openDiffResult':
      if (!message.ok) form?.showMessage(message.message);
      break;
    case 'rejected':
      form?.showMessage(w('The host did not accept that request: {0}', message.reason));
      break;
  }
}

window.addEventListener('message', (event: MessageEvent<ToWebview>) => onMessage(event.data));
// The host answers `ready` with `show`. On a loaded machine a `ready` posted while the webview's
// channel is still connecting can be lost, and the panel stayed at "Loading…": say it again each
// second until the host answers (its gate accepts a repeated `ready`).
function sayReady(): void {
  if (answered) return;
  vscode.postMessage({ type: 'ready' });
  setTimeout(sayReady, 1_000);
}
sayReady();
