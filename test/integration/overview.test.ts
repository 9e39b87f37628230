// The session overview and the dashboard inside a real extension host: the command opens a
// webview panel for a session, the host answers the page's messages through its gate, a CLI
// write to the ledger reaches the open overview as a new model, an unreadable ledger is shown with
// its reason, and the dashboard lists the session.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DashboardPanel } from '../../src/extension/overview/dashboardPanel';
import type { OverviewPanel } from '../../src/extension/overview/overviewPanel';
import type { ToOverview } from '../../src/shared/overview-protocol';
import { syntheticLedger } from '../unit/overview/synthetic-ledger';
import { extensionPath, loopLedgerApi, workspaceRoot } from './sessionsHelpers';

const SESSION = 'overview-it';
const TORN = 'overview-it-torn';

/** Resolves with the first message the panel posts that `match` accepts. */
function nextPost<T extends ToOverview>(
  panel: { onDidPost: vscode.Event<ToOverview> },
  match: (m: ToOverview) => m is T,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    const subscription = panel.onDidPost((m) => {
      if (!match(m)) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(m);
    });
  });
}

type Model = Extract<ToOverview, { type: 'overview' }>;
const isModel =
  (iterations: number) =>
  (m: ToOverview): m is Model =>
    m.type === 'overview' && m.model.iterations === iterations;

describe('session overview (integration)', () => {
  let root: string;
  let ledgers: string;
  let overview: OverviewPanel | undefined;
  let dashboard: DashboardPanel | undefined;

  before(async () => {
    const api = await loopLedgerApi();
    root = workspaceRoot();
    ledgers = join(root, '.loop', 'ledgers');
    mkdirSync(ledgers, { recursive: true });
    const ledger = syntheticLedger(5, SESSION);
    ledger.iterations[4]!.outcome = 'continue';
    writeFileSync(join(ledgers, `${SESSION}.json`), JSON.stringify(ledger, null, 2));
    await api.sessions.refreshAll();
  });

  after(async () => {
    overview?.dispose();
    dashboard?.dispose();
    rmSync(join(ledgers, `${SESSION}.json`), { force: true });
    rmSync(join(ledgers, `${TORN}.json`), { force: true });
    await (await loopLedgerApi()).sessions.refreshAll();
  });

  it('opens a webview panel for the session and answers the handshake with its model', async () => {
    overview = await vscode.commands.executeCommand<OverviewPanel>('loopLedger.showSessionOverview', {
      root,
      session: SESSION,
    });
    assert.ok(overview, 'the command returns the panel it opened');
    assert.equal(overview.panel.viewType, 'loopLedger.sessionOverview');
    assert.equal(overview.session, SESSION);
    const options = overview.panel.webview.options;
    assert.equal(options.enableScripts, true);
    assert.deepEqual(
      options.localResourceRoots?.map((u) => u.fsPath),
      [join(extensionPath(), 'dist', 'webview')],
    );
    const shown = nextPost(overview, isModel(5), 'the model of 5 iterations');
    assert.deepEqual(await overview.receive({ type: 'ready', buckets: 200 }), {
      accepted: true,
      type: 'ready',
    });
    const { model } = await shown;
    assert.equal(model.session, SESSION);
    assert.equal(model.dimensions.length, 2);
    // Asking twice reveals the same panel.
    const again = await vscode.commands.executeCommand<OverviewPanel>('loopLedger.showSessionOverview', {
      root,
      session: SESSION,
    });
    assert.equal(again, overview);
  });

  it('answers an iteration request through the gate and refuses one outside the ledger', async () => {
    const panel = overview!;
    const answer = nextPost(
      panel,
      (m): m is Extract<ToOverview, { type: 'iteration' }> => m.type === 'iteration',
      'iteration 2',
    );
    assert.deepEqual(await panel.receive({ type: 'showIteration', requestId: 'it-1', n: 2 }), {
      accepted: true,
      type: 'showIteration',
    });
    const { n, lines } = await answer;
    assert.equal(n, 2);
    assert.ok(lines.some((l) => l.key === 'files changed'));
    const refused = await panel.receive({ type: 'showIteration', requestId: 'it-2', n: 99 });
    assert.deepEqual(refused, { accepted: false, reason: 'unknown iteration: 99 is not in this ledger' });
    const malformed = await panel.receive({ type: 'openBrief', requestId: 'it-3', n: 'two' });
    assert.equal(malformed.accepted, false);
  });

  it('shows a CLI write in the open overview', async () => {
    const updated = nextPost(overview!, isModel(6), 'the model of 6 iterations after the CLI write');
    execFileSync(process.execPath, [
      join(extensionPath(), 'dist', 'cli.js'),
      'iterate',
      '--root',
      root,
      '--session',
      SESSION,
      '--outcome',
      'continue',
      '--measure',
      'failing-tests=1',
      '--measure',
      'coverage=82',
    ]);
    const { model } = await updated;
    const coverage = model.dimensions.find((d) => d.dimension === 'coverage')!;
    assert.equal(coverage.series.points.at(-1)?.value, 82);
  });

  it('shows why an unreadable ledger cannot be drawn', async () => {
    writeFileSync(join(ledgers, `${TORN}.json`), '{"session": ');
    await (await loopLedgerApi()).sessions.refreshAll();
    const torn = await vscode.commands.executeCommand<OverviewPanel>('loopLedger.showSessionOverview', {
      root,
      session: TORN,
    });
    assert.ok(torn);
    const problem = nextPost(
      torn,
      (m): m is Extract<ToOverview, { type: 'problem' }> => m.type === 'problem',
      'the problem message',
    );
    await torn.receive({ type: 'ready' });
    assert.match((await problem).reason, /unreadable ledger/);
    torn.dispose();
  });

  it('lists the session in the dashboard and opens its overview from a row', async () => {
    dashboard = await vscode.commands.executeCommand<DashboardPanel>('loopLedger.showDashboard');
    assert.ok(dashboard);
    assert.equal(dashboard.panel.viewType, 'loopLedger.dashboard');
    const rows = nextPost(
      dashboard,
      (m): m is Extract<ToOverview, { type: 'dashboard' }> => m.type === 'dashboard',
      'the dashboard rows',
    );
    await dashboard.receive({ type: 'ready' });
    const listed = (await rows).rows;
    const row = listed.find((r) => r.session === SESSION);
    assert.ok(row, 'the session is listed');
    assert.equal(row.n, 6 - 1); // the current epoch (2) holds records 2..6
    // The unreadable ledger needs a person: it comes before the readable session.
    assert.ok(listed.findIndex((r) => r.session === TORN) < listed.indexOf(row));
    const refused = await dashboard.receive({
      type: 'openOverview',
      requestId: 'd-1',
      root: '/elsewhere',
      session: SESSION,
    });
    assert.equal(refused.accepted, false);
    const opened = await dashboard.receive({
      type: 'openOverview',
      requestId: 'd-2',
      root,
      session: SESSION,
    });
    assert.deepEqual(opened, { accepted: true, type: 'openOverview' });
  });
});
