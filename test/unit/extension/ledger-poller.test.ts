import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { POLL_INTERVAL_MS, pollLedgerFolders } from '../../../src/extension/sessions/ledgerPoller';
import type { SessionsTreeProvider } from '../../../src/extension/sessions/treeProvider';
import { tempRoot } from '../helpers/cli';

function fakeProvider(refreshed: string[], loaded = false): SessionsTreeProvider {
  return {
    loaded,
    sessionNodes: () => [],
    refreshFile: async (path: string) => {
      refreshed.push(path);
      return undefined;
    },
  } as unknown as SessionsTreeProvider;
}

describe('extension: the ledger-folder poll runs only while it can matter', () => {
  it('does not run while the view is hidden or no ledger folder exists; runs once one does', async () => {
    const root = tempRoot();
    const refreshed: string[] = [];
    const poller = pollLedgerFolders(fakeProvider(refreshed), () => [{ name: 'w', path: root }]);
    try {
      await poller.update(true);
      assert.equal(poller.running, false, 'no ledger folder: no poll');
      mkdirSync(join(root, '.loop', 'ledgers'), { recursive: true });
      await poller.update(false);
      assert.equal(poller.running, false, 'hidden view: no poll');
      await Promise.all([poller.update(true), poller.update(true)]);
      assert.equal(poller.running, true);
      const ledger = join(root, '.loop', 'ledgers', 's.json');
      writeFileSync(ledger, '{}');
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS * 2.5));
      assert.ok(refreshed.includes(ledger), `refreshed ${JSON.stringify(refreshed)}`);
      await poller.update(false);
      assert.equal(poller.running, false, 'stops when the view is hidden');
    } finally {
      poller.dispose();
    }
    assert.equal(poller.running, false);
  });

  it('catches up when it starts: a ledger written before its first look is refreshed', async () => {
    // The write lands before the poll's baseline (a hidden view, a watcher event that never came):
    // comparing mtimes only from the baseline on would never see it.
    const root = tempRoot();
    mkdirSync(join(root, '.loop', 'ledgers'), { recursive: true });
    const ledger = join(root, '.loop', 'ledgers', 'early.json');
    writeFileSync(ledger, '{}');
    const refreshed: string[] = [];
    const poller = pollLedgerFolders(fakeProvider(refreshed, true), () => [{ name: 'w', path: root }]);
    try {
      await poller.update(true);
      assert.equal(poller.running, true);
      assert.deepEqual(refreshed, [ledger]);
    } finally {
      poller.dispose();
    }
  });

  it('does not catch up before the tree has read anything (its first read sees every file)', async () => {
    const root = tempRoot();
    mkdirSync(join(root, '.loop', 'ledgers'), { recursive: true });
    writeFileSync(join(root, '.loop', 'ledgers', 'early.json'), '{}');
    const refreshed: string[] = [];
    const poller = pollLedgerFolders(fakeProvider(refreshed, false), () => [{ name: 'w', path: root }]);
    try {
      await poller.update(true);
      assert.deepEqual(refreshed, []);
    } finally {
      poller.dispose();
    }
  });
});
