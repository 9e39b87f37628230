import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { loopLedgerApi } from './sessionsHelpers';

const EXTENSION_ID = 'loop-ledger.loop-ledger';

interface Contributes {
  viewsContainers?: { activitybar?: { id: string; title: string }[] };
  views?: Record<string, { id: string; name: string }[]>;
  viewsWelcome?: { view: string; contents: string }[];
  commands?: { command: string; title: string }[];
}

function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  return ext;
}

describe('Loop Ledger extension in a real extension host', () => {
  it('is present and activates', async () => {
    const ext = extension();
    const wasActive = ext.isActive;
    const started = performance.now();
    await ext.activate();
    const elapsed = performance.now() - started;
    assert.equal(ext.isActive, true);
    const api = await loopLedgerApi();
    assert.equal(typeof api.activationMs, 'number');
    const note = wasActive ? ' (already active before the test)' : '';
    console.log(
      `    activation: ext.activate() took ${elapsed.toFixed(1)} ms${note}; activate() itself reports ${api.activationMs} ms`,
    );
  });

  it('returns nothing from activate: its parts and test seams reach the tests only through the test hooks', async () => {
    const ext = extension();
    assert.equal(await ext.activate(), undefined);
    assert.equal(ext.exports, undefined);
    const api = (await loopLedgerApi()) as unknown as Record<string, unknown>;
    assert.deepEqual(Object.keys(api).sort(), [
      'activationMs',
      'ledgerPoll',
      'receipts',
      'runs',
      'sessions',
      'store',
      'testing',
      'workOrders',
    ]);
    const testing = api.testing as Record<string, Record<string, unknown>>;
    assert.equal(typeof testing.prompter?.use, 'function');
    assert.equal(typeof testing.trust?.simulateUntrusted, 'function');
  });

  it('contributes the Loop Ledger view container, the Sessions view and its welcome text', () => {
    const contributes = extension().packageJSON.contributes as Contributes;
    const container = contributes.viewsContainers?.activitybar?.find((c) => c.id === 'loopLedger');
    assert.equal(container?.title, 'Loop Ledger');
    const sessions = contributes.views?.loopLedger?.find((v) => v.id === 'loopLedger.sessions');
    assert.equal(sessions?.name, 'Sessions');
    const welcome = contributes.viewsWelcome?.find((w) => w.view === 'loopLedger.sessions');
    assert.match(welcome?.contents ?? '', /command:loopLedger\.showLedgerFolder/);
  });

  it('registers every contributed command', async () => {
    const declared =
      (extension().packageJSON.contributes as Contributes).commands?.map((c) => c.command) ?? [];
    assert.ok(declared.length > 0, 'no commands contributed');
    const available = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      declared.filter((id) => !available.has(id)),
      [],
    );
  });

  describe('Loop Ledger: Reveal Ledger Folder', () => {
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const ledgers = workspace ? join(workspace, '.loop', 'ledgers') : '';

    before(() => {
      assert.ok(workspace, 'the integration tier opens a workspace folder');
    });
    after(() => {
      if (workspace) rmSync(join(workspace, '.loop'), { recursive: true, force: true });
    });

    it('says the folder does not exist yet, and creates nothing', async () => {
      rmSync(join(workspace!, '.loop'), { recursive: true, force: true });
      const result = await vscode.commands.executeCommand('loopLedger.showLedgerFolder');
      assert.deepEqual(result, { folder: ledgers, exists: false, revealedIn: 'none' });
      await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.file(ledgers))));
    });

    it('reveals the folder once it exists', async () => {
      mkdirSync(ledgers, { recursive: true });
      const result = (await vscode.commands.executeCommand('loopLedger.showLedgerFolder')) as {
        exists: boolean;
        revealedIn: string;
      };
      assert.equal(result.exists, true);
      const expected = vscode.env.remoteName === undefined && vscode.env.uiKind === vscode.UIKind.Desktop;
      assert.equal(result.revealedIn, expected ? 'os' : 'explorer');
    });
  });
});
