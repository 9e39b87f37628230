// The extension activates only where it belongs, and once active in a
// workspace without `.loop/` it runs nothing: no poll, no timers of its own, no ledger reads
// beyond listing two absent folders once. (Sorted first, so it sees the window before any other
// suite activates the extension or copies ledgers in.)
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, loopLedgerApi, workspaceRoot } from './sessionsHelpers';

/** Node's own count of live timers in this extension host (every extension shares it). */
function liveTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

describe('Activation in a workspace without .loop/', () => {
  it('declares only our own files, commands and views as activation events', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const events = (ext.packageJSON.activationEvents ?? []) as string[];
    assert.deepEqual(
      events.filter((e) => e.startsWith('onLanguage') || e === '*' || e.startsWith('onStartupFinished')),
      [],
    );
    for (const event of events.filter((e) => e.startsWith('workspaceContains:')))
      assert.match(
        event,
        /\.loop\/|\.claude\/\.runtime\/work-loop\/|\.loop-contract\.json$|\.loop\.md$|work-orders\/wo-\*\.md$/,
        event,
      );
  });

  it('was not activated by the window, and once activated runs no poll and leaves no timers', async () => {
    const root = workspaceRoot();
    assert.equal(existsSync(join(root, '.loop')), false, 'the fixture workspace has no .loop/');
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    assert.equal(ext.isActive, false, 'nothing in this workspace should have activated Loop Ledger');
    const timersBefore = liveTimers();
    const started = performance.now();
    await ext.activate();
    const activateMs = performance.now() - started;
    const api = await loopLedgerApi();
    await api.sessions.ready();
    await new Promise((resolve) => setTimeout(resolve, 1_200)); // longer than any poll interval
    const timersAfter = liveTimers();
    console.log(
      `    activation without .loop/: ext.activate() ${activateMs.toFixed(1)} ms (activate() itself ${api.activationMs} ms); ` +
        `afterwards: poll running ${api.ledgerPoll.running}, sessions read ${api.sessions.sessionNodes().length}, ` +
        `live timers ${timersBefore} → ${timersAfter}`,
    );
    assert.equal(api.ledgerPoll.running, false);
    assert.equal(api.sessions.sessionNodes().length, 0);
    // The timer count is printed, not asserted: other extensions share this host and start and
    // stop their own timers meanwhile.
  });
});
