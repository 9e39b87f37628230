// `loop-ledger-git:` documents take root, revision and path from their URI,
// which anything can construct. Only a workspace folder, a real revision and a repository path
// reach git, and never as an option.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { revisionUri } from '../../src/extension/brief/gitRevisionDocuments';
import { loopLedgerApi, testingApi, workspaceRoot } from './sessionsHelpers';

describe('loop-ledger-git: documents', () => {
  before(async () => {
    await loopLedgerApi();
  });

  it('opens a document for a workspace folder (empty side of an added file: no git at all)', async () => {
    const document = await vscode.workspace.openTextDocument(
      revisionUri(workspaceRoot(), '', 'src/greet.js'),
    );
    assert.equal(document.getText(), '');
  });

  it('refuses a root that is not a workspace folder, an option as revision, a path out of the repository', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'loop-ledger-git-doc-'));
    const written = join(outside, 'written');
    try {
      const refused = [
        revisionUri(outside, 'HEAD', 'x.txt'),
        revisionUri(workspaceRoot(), `--output=${written}`, 'src/greet.js'),
        revisionUri(workspaceRoot(), 'HEAD', '../../etc/passwd'),
      ];
      for (const uri of refused) {
        await assert.rejects(Promise.resolve(vscode.workspace.openTextDocument(uri)), /refused/, uri.query);
      }
      assert.equal(existsSync(written), false, 'git wrote no file');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('runs no git in an untrusted workspace: a URI it would serve is refused (no git repository needed)', async () => {
    const untrusted = (await testingApi()).trust.simulateUntrusted();
    try {
      // A revision and path never asked for before, so no cached document answers instead.
      const uri = revisionUri(workspaceRoot(), 'HEAD~3', `src/untrusted-${Date.now()}.js`);
      await assert.rejects(
        Promise.resolve(vscode.workspace.openTextDocument(uri)),
        /runs no git in an untrusted workspace/,
      );
    } finally {
      untrusted.dispose();
    }
    // Control: trusted again, the same URI is served (git runs; a missing file reads as empty).
    const served = await vscode.workspace.openTextDocument(
      revisionUri(workspaceRoot(), 'HEAD~3', 'src/untrusted-control.js'),
    );
    assert.equal(served.getText(), '');
  });
});
