// A loop that needs a person announces itself once: a CLI write that stalls a session, seen by the
// Sessions tree's ledger watching, shows one notification and raises the activity-bar badge.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LoopLedgerApi } from '../../src/extension/extension';
import { notificationKey } from '../../src/extension/notifications/keys';
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
    const key = notificationKey(root, { key: `${session}:1:2:stall` });
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
    const key = notificationKey(root, { key: `${waiting}:1:0:verdict` });
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
  /** `args` run through the CLI as an agent would, for `id` in the test workspace. */
  function cli(id: string, ...args: string[]): void {
    const bin = join(extensionPath(), 'dist', 'cli.js');
    execFileSync(process.execPath, [bin, ...args, '--root', root, '--session', id], { stdio: 'pipe' });
  }
  const contractPath = () => join(root, '.loop', 'contracts', 'parser-coverage.json');
  /** The notifications shown for `id`'s event `tail` (`epoch:n:kind`) in the test folder. */
  const shownFor = (id: string, tail: string) =>
    testing.attention.notified.filter((e) => e.key === notificationKey(root, { key: `${id}:${tail}` }));
  const removeLedger = (id: string) => rmSync(join(root, '.loop', 'ledgers', `${id}.json`), { force: true });

  it('an agent that escalates shows one escalation notification with its blocker', async function () {
    this.timeout(45_000);
    const id = 'escalates-it';
    try {
      cli(id, 'open', '--contract', contractPath());
      cli(
        id,
        'iterate',
        '--outcome',
        'escalate',
        '--blocker',
        'the registry refuses our token',
        '--evidence',
        'HTTP 401',
        '--recommended-next',
        'ask ops for a token',
      );
      const [shown] = await waitFor(
        'the escalation notification',
        () => {
          const found = shownFor(id, '1:1:escalation');
          return found.length > 0 && found;
        },
        15_000,
      );
      assert.equal(shown!.kind, 'escalation');
      assert.match(
        shown!.message,
        /escalates-it \(epoch 1, iteration 1\) escalated: the registry refuses our token/,
      );
      assert.deepEqual(shown!.actions, ['Open Overview', 'Dismiss']);
    } finally {
      removeLedger(id);
      await api.sessions.refreshAll();
    }
  });

  it('a cost cap crossed shows a budget notification, and its Open Overview opens that overview', async function () {
    this.timeout(60_000);
    const id = 'over-budget-it';
    const capped = join(root, '.loop', 'contracts', 'capped-it.json');
    const contract = JSON.parse(readFileSync(contractPath(), 'utf8'));
    writeFileSync(capped, JSON.stringify({ ...contract, cost_limit: 1 }, null, 2));
    // A person clicks the notification's Open Overview button.
    const click = testing.attention.click(
      (key) => key === notificationKey(root, { key: `${id}:1:2:budget` }),
      'Open Overview',
    );
    const overviewTab = () =>
      vscode.window.tabGroups.all
        .flatMap((group) => group.tabs)
        .find(
          (tab) =>
            tab.input instanceof vscode.TabInputWebview &&
            tab.input.viewType.endsWith('loopLedger.sessionOverview') &&
            tab.label === `Overview: ${id}`,
        );
    try {
      cli(id, 'open', '--contract', capped);
      cli(id, 'iterate', '--outcome', 'continue', '--state', 'a', '--cost', '0.6');
      await waitFor('the session in the tree', () => api.sessions.findSession(root, id), 10_000);
      assert.equal(shownFor(id, '1:1:budget').length, 0, 'under the cap: nothing to say');
      assert.equal(overviewTab(), undefined);
      // 0.6 + 0.6 crosses the 1 USD cap: the engine stops the loop (cost-exhausted).
      cli(id, 'iterate', '--outcome', 'continue', '--state', 'b', '--cost', '0.6');
      const [shown] = await waitFor(
        'the budget notification',
        () => {
          const found = shownFor(id, '1:2:budget');
          return found.length > 0 && found;
        },
        15_000,
      );
      assert.equal(shown!.kind, 'budget');
      assert.match(
        shown!.message,
        /over-budget-it \(epoch 1, iteration 2\) stopped at a budget cap: cost-exhausted/,
      );
      assert.deepEqual(shown!.actions, ['Open Overview', 'Dismiss']);
      const tab = await waitFor('the overview the button opened', overviewTab, 15_000);
      await vscode.window.tabGroups.close(tab);
    } finally {
      click.dispose();
      rmSync(capped, { force: true });
      removeLedger(id);
      await api.sessions.refreshAll();
    }
  });

  it('loopLedger.notify.* switched off (false, or the word "false") shows no notification', async function () {
    this.timeout(60_000);
    const stalls = 'quiet-stall-it';
    const escalates = 'quiet-escalation-it';
    const notify = () => vscode.workspace.getConfiguration('loopLedger.notify');
    await notify().update('stall', false, vscode.ConfigurationTarget.Workspace);
    // As a hand-edited settings.json may hold it: a string, which must not read as "on".
    await notify().update('escalation', 'false', vscode.ConfigurationTarget.Workspace);
    try {
      await waitFor('the settings to apply', () => notify().get('escalation') === 'false', 5_000);
      await waitFor('a notifier pass', () => testing.attention.badge !== undefined, 5_000);
      const before = testing.attention.badge as number;
      cli(stalls, 'open', '--contract', contractPath());
      cli(stalls, 'iterate', '--outcome', 'continue', '--state', 'same');
      cli(stalls, 'iterate', '--outcome', 'continue', '--state', 'same');
      cli(escalates, 'open', '--contract', contractPath());
      cli(
        escalates,
        'iterate',
        '--outcome',
        'escalate',
        '--blocker',
        'no access',
        '--evidence',
        'HTTP 403',
        '--recommended-next',
        'ask ops',
      );
      // The badge still counts both loops (they need a person); only the interruption is off.
      await waitFor('the badge to count both loops', () => testing.attention.badge === before + 2, 15_000);
      await api.sessions.refreshAll();
      await waitFor('a notifier pass after the re-read', () => testing.attention.badge === before + 2, 5_000);
      assert.deepEqual(shownFor(stalls, '1:2:stall'), []);
      assert.deepEqual(shownFor(escalates, '1:1:escalation'), []);
    } finally {
      await notify().update('stall', undefined, vscode.ConfigurationTarget.Workspace);
      await notify().update('escalation', undefined, vscode.ConfigurationTarget.Workspace);
      removeLedger(stalls);
      removeLedger(escalates);
      await api.sessions.refreshAll();
    }
  });
});
