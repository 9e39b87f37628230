// Agent mode's language-model tools in a real VS Code: the record tool writes an iteration that
// the Sessions tree then shows, as any other write.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LoopLedgerApi } from '../../src/extension/extension';
import type { SessionNode } from '../../src/extension/sessions/nodes';
import { extensionPath, loopLedgerApi, waitFor, workspaceRoot } from './sessionsHelpers';

describe('language-model tools', () => {
  let api: LoopLedgerApi;
  let root: string;
  const session = 'lm-tools';

  before(async () => {
    api = await loopLedgerApi();
    root = workspaceRoot();
    const contract = join(root, 'lm-tools.contract.json');
    const source = join(extensionPath(), 'test', 'fixtures', 'contracts', 'valid.loop-contract.json');
    writeFileSync(contract, readFileSync(source));
    execFileSync(
      process.execPath,
      [
        join(extensionPath(), 'dist', 'cli.js'),
        'open',
        '--session',
        session,
        '--contract',
        contract,
        '--root',
        root,
      ],
      { stdio: 'pipe', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } },
    );
  });
  after(async () => {
    rmSync(join(root, '.loop', 'ledgers', `${session}.json`), { force: true });
    rmSync(join(root, 'lm-tools.contract.json'), { force: true });
    await api.sessions.refreshAll();
  });

  it('registers the three tools', () => {
    const names = vscode.lm.tools.map((t) => t.name);
    for (const name of ['loopLedger_sessionStatus', 'loopLedger_recordIteration', 'loopLedger_assembleBrief'])
      assert.ok(names.includes(name), name);
  });

  it('invokeTool on the record tool writes an iteration the Sessions tree shows', async () => {
    const result = await vscode.lm.invokeTool(
      'loopLedger_recordIteration',
      { input: { session, outcome: 'continue', actions: ['lm-1'] }, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    const text = (result.content[0] as vscode.LanguageModelTextPart).value;
    assert.equal(JSON.parse(text).n, 1, text);
    const ledger = JSON.parse(readFileSync(join(root, '.loop', 'ledgers', `${session}.json`), 'utf8'));
    assert.deepEqual(ledger.iterations[0].actions, ['lm-1']);
    await waitFor(
      'the tree shows the iteration',
      () => {
        const node = api.sessions
          .childrenOf()
          .find((n) => n.kind === 'session' && (n as SessionNode).entry.session === session) as
          SessionNode | undefined;
        return node !== undefined && 'status' in node.entry && node.entry.status.iterations === 1;
      },
      15_000,
    );
    const again = await vscode.lm.invokeTool(
      'loopLedger_recordIteration',
      { input: { session, outcome: 'continue', actions: ['lm-1'] }, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    assert.match((again.content[0] as vscode.LanguageModelTextPart).value, /^refused \(exit 5\)/);
  });
});
