// The overview and dashboard app. `data-page` on <body> says which page this is. Handshake as
// in the brief panel: the app says `ready` (with how many pixel buckets its charts are wide) until
// the host answers; after that the host posts a fresh model whenever the ledger changes.
import './overview.css';
import type {
  CheckpointActionName,
  FromOverview,
  SavedOverview,
  ToOverview,
} from '../../src/shared/overview-protocol';
import { renderDashboard } from './dashboard-page';
import { renderOverview, renderProblem, showDetail } from './overview-page';
import { useWords } from './words';

interface VsCodeApi {
  postMessage(message: FromOverview): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('app')!;
const page = document.body.dataset.page === 'dashboard' ? 'dashboard' : 'overview';
let counter = 0;
const nextRequestId = () => `r${Date.now().toString(36)}-${++counter}`;
let answered = false;
/** The model shown, drawn again at the new width when the window is resized. */
let shown: Extract<ToOverview, { type: 'overview' }>['model'] | null = null;
let resizing: ReturnType<typeof setTimeout> | undefined;

const overviewActions = {
  showIteration: (n: number) => vscode.postMessage({ type: 'showIteration', requestId: nextRequestId(), n }),
  openBrief: (n: number) => vscode.postMessage({ type: 'openBrief', requestId: nextRequestId(), n }),
  checkpoint: (n: number, action: CheckpointActionName) =>
    vscode.postMessage({ type: 'checkpoint', requestId: nextRequestId(), n, action }),
};
const dashboardActions = {
  openOverview: (rootPath: string, session: string) =>
    vscode.postMessage({ type: 'openOverview', requestId: nextRequestId(), root: rootPath, session }),
};

function keep(state: SavedOverview): void {
  vscode.setState(state);
}

function onMessage(message: ToOverview): void {
  answered = true;
  switch (message.type) {
    case 'words':
      useWords(message.words);
      break;
    case 'overview':
      keep(message.keep);
      shown = message.model;
      renderOverview(root, message.model, overviewActions);
      document.body.dataset.ready = 'true';
      document.body.dataset.iterations = String(message.model.iterations);
      // A first look at a long ledger; the complete model follows (tests wait for it).
      document.body.dataset.partial = message.model.partial ? 'true' : 'false';
      // Kept once set: a test (and a person's bug report) can tell a first look was painted even
      // after the complete model replaced it.
      if (message.model.partial) document.body.dataset.paintedPartial = 'true';
      break;
    case 'problem':
      shown = null;
      keep(message.keep);
      renderProblem(root, message.session, message.reason);
      document.body.dataset.ready = 'true';
      break;
    case 'iteration':
      showDetail(message.n, message.lines, message.checkpoint === true);
      break;
    case 'dashboard':
      renderDashboard(root, message.rows, dashboardActions);
      document.body.dataset.ready = 'true';
      break;
    case 'rejected':
      root.querySelector('.notice')?.remove();
      root.prepend(
        Object.assign(document.createElement('p'), { className: 'notice', textContent: message.reason }),
      );
      break;
  }
}

window.addEventListener('message', (event: MessageEvent<ToOverview>) => onMessage(event.data));
window.addEventListener('resize', () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => {
    if (shown) renderOverview(root, shown, overviewActions);
  }, 150);
});

/** About one bucket per pixel of a chart's drawn width. */
function buckets(): number {
  const width = Math.round(Math.min(window.innerWidth, 1600) / 2);
  return Math.max(8, Math.min(2000, width));
}

function sayReady(): void {
  if (answered) return;
  vscode.postMessage(page === 'overview' ? { type: 'ready', buckets: buckets() } : { type: 'ready' });
  setTimeout(sayReady, 1_000);
}
sayReady();
