import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { POLL_INTERVAL_MS, pollLedgerFolders } from '../../../src/extension/sessions/ledgerPoller';
import type { SessionsTreeProvider } from '../../../src/extension/sessions/treeProvider';
import { tempRoot } from '../helpers/cli';

function fakeProvider(refreshed: string[]): SessionsTreeProvider {
  return {
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
});
