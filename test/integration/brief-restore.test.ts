// A brief panel keeps only which brief it shows in its webview state (root,
// session, brief id) and the host re-reads the packet from the file it kept when the panel
// opened. The saved state comes back from the workbench as untrusted input: a root that is not a
// workspace folder, a traversal in an id, a huge string or an old whole-packet state is refused,
// and the panel then says why instead of showing anything from the state.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { openOp } from '../../src/app/contract/operations';
import { briefOp } from '../../src/app/ledger/operations';
import type { BriefPanel } from '../../src/extension/brief/briefPanel';
import { BriefPanels } from '../../src/extension/brief/briefPanels';
import { BRIEF_WORDS } from '../../src/shared/brief-words';
import { BriefWordTable, type PanelState, type ToWebview } from '../../src/shared/protocol';
import { extensionPath, loopLedgerApi, workspaceRoot } from './sessionsHelpers';

const SESSION = 'brief-restore-it';
const MARKER = 'RESTORE_MARKER_4f1c';
const DIFF = [
  'diff --git a/src/greet.js b/src/greet.js',
  'index 1111111..2222222 100644',
  '--- a/src/greet.js',
  '+++ b/src/greet.js',
  '@@ -1 +1 @@',
  "-exports.greet = (name) => 'hi ' + name;",
  `+exports.greet = (name) => '${MARKER} ' + name;`,
  '',
].join('\n');

const contract = {
  purpose: 'Restore a critic brief panel after a reload',
  owner: 'integration tests',
  starting_state: 'a one-line greeting',
  inputs: ['src/greet.js'],
  expected_outputs: ['a greeting'],
  success_criteria: ['tests pass'],
  failure_criteria: ['a test fails'],
  dependencies: ['node'],
  iteration_limit: 5,
  timeout_behaviour: 'record pause',
  escalation_path: 'ask a person',
  quality_rubric: [
    {
      dimension: 'tests',
      evidence_command: 'echo 12',
      baseline: 10,
      target: 12,
      weight: 100,
      failure_threshold: 9,
      direction: 'higher-is-better',
      hard_gate: true,
    },
  ],
};

describe('critic brief panel restore (webview state keeps no packet)', function () {
  this.timeout(60_000);
  const root = workspaceRoot();
  const created: vscode.Disposable[] = [];
  let state: PanelState;
  let keptFile: string;

  function panels(isTrusted = true): BriefPanels {
    const output = vscode.window.createOutputChannel('Loop Ledger (restore test)');
    const set = new BriefPanels({
      extensionUri: vscode.Uri.file(extensionPath()),
      output,
      isTrusted: () => isTrusted,
      storeWrites: () => undefined,
    });
    created.push(set, output);
    return set;
  }

  function webviewPanel(): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel('loopLedger.test', 'restore', vscode.ViewColumn.Beside, {
      enableScripts: true,
    });
    created.push(panel);
    return panel;
  }

  /** What the host sends on `ready`, including the `keep` the webview saves with setState. */
  async function shown(panel: BriefPanel): Promise<Extract<ToWebview, { type: 'show' }>> {
    let message: Extract<ToWebview, { type: 'show' }> | undefined;
    const listening = panel.onDidPost((m) => {
      if (m.type === 'show') message = m;
    });
    try {
      assert.equal((await panel.receive({ type: 'ready' })).accepted, true);
    } finally {
      listening.dispose();
    }
    assert.ok(message, 'the host answered ready with show');
    return message;
  }

  before(async () => {
    await loopLedgerApi();
    const contracts = join(root, '.loop', 'contracts');
    mkdirSync(contracts, { recursive: true });
    writeFileSync(join(contracts, `${SESSION}.json`), JSON.stringify(contract));
    const opened = openOp(root, SESSION, {
      contractPath: join(contracts, `${SESSION}.json`),
      now: new Date(),
    });
    assert.equal(opened.exitCode, 0, JSON.stringify(opened.findings));
    const outcome = briefOp(root, SESSION, {
      diff: { path: 'change.diff', text: DIFF },
      verification: { path: 'suite.txt', text: '12 passing\n' },
    });
    assert.equal(outcome.exitCode, 0, JSON.stringify(outcome.findings));
    state = {
      session: SESSION,
      change: { kind: 'workingTree', label: 'Working tree vs HEAD', base: 'HEAD', head: ':worktree' },
      packet: outcome.payload!,
      spent: null,
      canRecord: true,
    };
    keptFile = join(root, '.loop', 'briefs', `${state.packet.brief_id}.panel.json`);
  });

  after(() => {
    for (const d of created.splice(0)) d.dispose();
    rmSync(join(root, '.loop', 'ledgers', `${SESSION}.json`), { force: true });
    rmSync(join(root, '.loop', 'contracts', `${SESSION}.json`), { force: true });
    rmSync(keptFile, { force: true });
    const briefs = join(root, '.loop', 'briefs');
    if (existsSync(briefs) && readdirSync(briefs).length === 0) rmSync(briefs, { recursive: true });
  });

  it('keeps the packet in .loop/briefs when the panel opens; the webview keeps only root, session and id', async () => {
    const opened = await panels().open(state, root);
    created.push(opened);
    assert.ok(existsSync(keptFile), 'the packet is kept for a restore');
    const { keep } = await shown(opened);
    assert.deepEqual(keep, { root, session: SESSION, briefId: state.packet.brief_id });
    const saved = JSON.stringify(keep);
    assert.ok(!saved.includes(MARKER) && !saved.includes('diff --git'), 'no diff text in webview state');
    assert.ok(saved.length < 4096 + 256, `webview state is small (${saved.length} chars)`);
  });

  it('sends the webview its words in the display language with show, every key checked', async () => {
    const opened = await panels().open(state, root);
    created.push(opened);
    const { words } = await shown(opened);
    assert.deepEqual(Object.keys(words).sort(), [...BRIEF_WORDS].sort(), 'a translation for every key');
    assert.ok(BriefWordTable.safeParse(words).success, 'the table passes its own schema');
    // The test instance runs in English with no language pack: each word is its key.
    assert.equal(vscode.env.language, 'en');
    assert.deepEqual(
      BRIEF_WORDS.filter((key) => words[key] !== key),
      [],
    );
    assert.match(opened.panel.webview.html, /<html lang="en">/);
    assert.match(opened.panel.webview.html, /<title>Critic brief<\/title>/);
    assert.match(opened.panel.webview.html, /Loading the critic brief…/);
  });

  it('restores the panel from that state through the serializer, re-reading the packet', async () => {
    const set = panels();
    const keep = { root, session: SESSION, briefId: state.packet.brief_id };
    await set.deserializeWebviewPanel(webviewPanel(), keep);
    assert.equal(set.all.length, 1, 'one panel restored');
    const restored = set.all[0]!;
    assert.equal(restored.root, root);
    assert.equal(restored.currentState.packet.diff, state.packet.diff);
    assert.equal(restored.currentState.spent, null, 'the ledger still holds this brief as pending');
    assert.deepEqual((await shown(restored)).keep, keep);
  });

  it('restores read-only in an untrusted workspace and writes nothing', async () => {
    const before = statSync(keptFile).mtimeMs;
    const set = panels(false);
    const result = await set.restore(webviewPanel(), {
      root,
      session: SESSION,
      briefId: state.packet.brief_id,
    });
    assert.ok('panel' in result, 'refused' in result ? result.refused : '');
    const message = await shown(result.panel);
    assert.equal(message.state.canRecord, false);
    assert.equal(message.state.packet.brief_id, state.packet.brief_id);
    assert.equal(statSync(keptFile).mtimeMs, before, 'the kept file was not rewritten');
  });

  it('refuses forged states: another root, traversal ids, huge strings, an old whole-packet state', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'loop-ledger-restore-'));
    // A folder outside the workspace that carries a convincing packet file and ledger.
    mkdirSync(join(elsewhere, '.loop', 'briefs'), { recursive: true });
    writeFileSync(
      join(elsewhere, '.loop', 'briefs', `${state.packet.brief_id}.panel.json`),
      JSON.stringify(state),
    );
    const id = state.packet.brief_id;
    const forged: [string, unknown, RegExp][] = [
      ['another root', { root: elsewhere, session: SESSION, briefId: id }, /not a folder of this workspace/],
      ['a relative root', { root: '.', session: SESSION, briefId: id }, /not a folder of this workspace/],
      ['../ in the brief id', { root, session: SESSION, briefId: '../../../etc/passwd' }, /malformed/],
      ['../ in the session', { root, session: '../../outside', briefId: id }, /invalid session/],
      ['a huge root', { root: 'x'.repeat(5_000_000), session: SESSION, briefId: id }, /malformed/],
      ['an old whole-packet state', { ...state }, /malformed/],
      ['an extra key', { root, session: SESSION, briefId: id, packet: state.packet }, /malformed/],
      ['nothing', undefined, /malformed/],
      ['another brief id', { root, session: SESSION, briefId: 'f'.repeat(16) }, /is gone/],
    ];
    try {
      for (const [what, saved, reason] of forged) {
        const set = panels();
        const panel = webviewPanel();
        const result = await set.restore(panel, saved);
        assert.ok('refused' in result, `${what}: refused`);
        assert.match(result.refused, reason, what);
        assert.equal(set.all.length, 0, `${what}: no panel restored`);
        assert.match(panel.webview.html, /data-unrestorable="true"/, `${what}: the panel says why`);
        assert.ok(!panel.webview.html.includes(MARKER), `${what}: nothing from a packet shown`);
        assert.ok(panel.webview.html.length < 20_000, `${what}: the reason is bounded`);
      }
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('refuses a kept file that holds another brief or is not a packet', async () => {
    const original = JSON.stringify({ session: state.session, change: state.change, packet: state.packet });
    try {
      for (const [text, reason] of [
        [JSON.stringify({ ...JSON.parse(original), session: 'someone-else' }), /holds another brief/],
        ['{"session": 1', /not JSON/],
        [JSON.stringify({ session: SESSION }), /not a brief panel's packet/],
      ] as const) {
        writeFileSync(keptFile, text);
        const result = await panels().restore(webviewPanel(), {
          root,
          session: SESSION,
          briefId: state.packet.brief_id,
        });
        assert.ok('refused' in result && reason.test(result.refused), JSON.stringify(result));
      }
    } finally {
      writeFileSync(keptFile, original + '\n');
    }
  });
});
