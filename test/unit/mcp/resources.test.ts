// Ledgers, brief packets and contracts as loop-ledger:// resources, and resources/subscribe: a
// write by another process (the CLI) is announced to the subscriber.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ledgerPath, runCli, runCliAsync, sampleContract, tempRoot, writeJson } from '../helpers/cli';
import { connect } from './client';

describe('mcp: resources', function () {
  this.timeout(60_000);

  it('lists and reads ledgers and contracts; refuses a contract path leading out of the root', async () => {
    const root = tempRoot('mcp-res-');
    writeJson(join(root, '.loop/contracts/main.json'), sampleContract());
    runCli(['open', '--session', 'one', '--contract', '.loop/contracts/main.json'], { cwd: root });
    symlinkSync('/etc', join(root, 'etc-link'));
    const mcp = await connect(root);
    try {
      const { resources } = await mcp.client.listResources();
      assert.deepEqual(
        resources.map((r) => r.uri),
        ['loop-ledger://ledger/one', 'loop-ledger://contract/.loop/contracts/main.json'],
      );
      const ledger = await mcp.client.readResource({ uri: 'loop-ledger://ledger/one' });
      assert.equal(
        (ledger.contents[0] as { text: string }).text,
        readFileSync(ledgerPath(root, 'one'), 'utf8'),
      );
      const contract = await mcp.client.readResource({
        uri: 'loop-ledger://contract/.loop/contracts/main.json',
      });
      assert.equal(JSON.parse((contract.contents[0] as { text: string }).text).owner, 'parser team');
      await assert.rejects(
        mcp.client.readResource({ uri: 'loop-ledger://contract/etc-link/hostname' }),
        /outside the root/,
      );
      await assert.rejects(mcp.client.readResource({ uri: 'loop-ledger://ledger/..%2Fx' }), /not valid/);
      // What a cloned repository can carry in a contract's or a ledger's place: refused at once,
      // never waited on or read without end, and the server still answers.
      execFileSync('mkfifo', [join(root, '.loop/contracts/fifo.json')]);
      symlinkSync('/dev/zero', join(root, '.loop/contracts/zero.json'));
      await assert.rejects(
        mcp.client.readResource({ uri: 'loop-ledger://contract/.loop/contracts/fifo.json' }),
        /FIFO/,
      );
      await assert.rejects(
        mcp.client.readResource({ uri: 'loop-ledger://contract/.loop/contracts/zero.json' }),
        /outside the root/,
      );
      symlinkSync('/dev/zero', join(root, '.loop/ledgers/two.json'));
      await assert.rejects(mcp.client.readResource({ uri: 'loop-ledger://ledger/two' }), /symbolic link/);
      assert.equal(
        ((await mcp.client.readResource({ uri: 'loop-ledger://ledger/one' })).contents[0] as { text: string })
          .text.length > 0,
        true,
      );
      const { resourceTemplates } = await mcp.client.listResourceTemplates();
      assert.equal(resourceTemplates.length, 3);
    } finally {
      await mcp.close();
    }
  });

  it('announces a CLI write to a subscribed ledger', async () => {
    const root = tempRoot('mcp-sub-');
    writeJson(join(root, 'c.json'), sampleContract());
    runCli(['open', '--session', 'w', '--contract', 'c.json'], { cwd: root });
    const mcp = await connect(root);
    try {
      const updated: string[] = [];
      let announce: () => void = () => undefined;
      const announced = new Promise<void>((resolve) => (announce = resolve));
      mcp.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
        updated.push(n.params.uri);
        announce();
      });
      await mcp.client.subscribeResource({ uri: 'loop-ledger://ledger/w' });
      const cli = await runCliAsync(['iterate', '--session', 'w', '--outcome', 'continue', '--action', 'a'], {
        cwd: root,
      });
      assert.equal(cli.code, 0);
      await announced;
      assert.equal(updated[0], 'loop-ledger://ledger/w');
      await mcp.client.unsubscribeResource({ uri: 'loop-ledger://ledger/w' });
    } finally {
      await mcp.close();
    }
  });
});
