// A loop that needs a person announces itself once: a CLI write that stalls a session, seen by the
// Sessions tree's ledger watching, shows one notification and raises the activity-bar badge.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LoopLedgerApi } from '../../src/extension/extension';
import type { TestingApi } from '../hooks/testHooks';
import {
  extensionPath,
  installSessionFixtures,
  loopLedgerApi,
  removeSessionFixtures,
  testingApi,
  waitFor,
  workspaceRoot,
} from './sessionsHelpers';

describe('Notifications: a loop that needs a person', () => {
  let api: LoopLedgerApi;
  let testing: TestingApi;
  let root: string;
  const session = 'needs-a-person';

  before(async () => {
    api = await loopLedgerApi();
    testing = await testingApi();
    root = workspaceRoot();
    installSessionFixtures(root);
    await api.sessions.refreshAll();
    // As a person watching loops has it: the view shown, so the folder poll backs up the watcher.
    await vscode.commands.executeCommand('loopLedger.sessions.focus');
  });
  after(async () => {
    rmSync(join(root, '.loop', 'ledgers', `${session}.json`), { force: true });
    removeSessionFixtures(root);
    await api.sessions.refreshAll();
  });

  it('a CLI write that stalls a session shows one notification, once, and the badge counts it', async function () {
    this.timeout(45_000);
    const cli = join(extensionPath(), 'dist', 'cli.js');
    const contract = join(root, '.loop', 'contracts', 'parser-coverage.json');
    const run = (...args: string[]) =>
      execFileSync(process.execPath, [cli, ...args, '--root', root, '--session', session], { stdio: 'pipe' });
    const key = `${session}:1:2:stall`;
    const ours = () => testing.attention.notified.filter((e) => e.key === key);

    run('open', '--contract', contract);
    run('iterate', '--outcome', 'continue', '--state', 'same');
    await waitFor('the new session in the tree', () => api.sessions.findSession(root, session), 10_000);
    await waitFor('a notifier pass', () => testing.attention.badge !== undefined, 5_000);
    const before = testing.attention.badge as number;
    assert.equal(ours().length, 0, 'an open loop with nothing pending needs no one');

    // The same state again: circular-state promotes the iteration to `revise` and closes the epoch.
    run('iterate', '--outcome', 'continue', '--state', 'same');
    const [shown] = await waitFor('the stall notification', () => ours().length > 0 && ours(), 10_000);
    assert.equal(shown!.kind, 'stall');
    assert.match(shown!.message, /needs-a-person \(epoch 1, iteration 2\) stalled: circular-state/);
    assert.deepEqual(shown!.actions, ['Open Overview', 'Dismiss']);
    await waitFor(
      'the badge to count the stalled loop',
      () => testing.attention.badge === before + 1,
      10_000,
    );

    // Every session re-read again (what a reload does): the event is remembered, not repeated.
    await api.sessions.refreshAll();
    await waitFor('a notifier pass after the re-read', () => testing.attention.badge === before + 1, 5_000);
    assert.equal(ours().length, 1, 'shown once');

    // A person re-opens the loop: it no longer needs one, and the badge goes down.
    run('open', '--contract', contract);
    await waitFor('the badge to drop after the re-open', () => testing.attention.badge === before, 10_000);
    assert.equal(ours().length, 1);
  });

  it('in an untrusted workspace a brief waiting for a verdict offers nothing that writes', async function () {
    this.timeout(45_000);
    const waiting = 'waits-untrusted';
    const ledger = join(root, '.loop', 'ledgers', `${waiting}.json`);
    const cli = join(extensionPath(), 'dist', 'cli.js');
    const contract = join(root, '.loop', 'contracts', 'parser-coverage.json');
    const key = `${waiting}:1:0:verdict`;
    const untrusted = testing.trust.simulateUntrusted();
    try {
      execFileSync(
        process.execPath,
        [cli, 'open', '--contract', contract, '--root', root, '--session', waiting],
        {
          stdio: 'pipe',
        },
      );
      // A brief armed by an agent elsewhere: the ledger now waits for a critic verdict.
      const armed = JSON.parse(readFileSync(ledger, 'utf8'));
      armed.pending_brief = { brief_id: '00000000000000bb' };
      writeFileSync(ledger, JSON.stringify(armed, null, 2));
      const [shown] = await waitFor(
        'the verdict notification',
        () => {
          const found = testing.attention.notified.filter((e) => e.key === key);
          return found.length > 0 && found;
        },
        15_000,
      );
      assert.equal(shown!.kind, 'verdict');
      // Record Verdict writes the ledger and Assemble Brief runs git: neither is offered here.
      assert.deepEqual(shown!.actions, ['Open Overview', 'Dismiss']);
    } finally {
      untrusted.dispose();
      rmSync(ledger, { force: true });
      await api.sessions.refreshAll();
    }
  });
});
