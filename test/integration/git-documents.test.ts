// Item 3 of issue 10: `loop-ledger-git:` documents take root, revision and path from their URI,
// which anything can construct. Only a workspace folder, a real revision and a repository path
// reach git, and never as an option.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { revisionUri } from '../../src/extension/brief/gitRevisionDocuments';
import { loopLedgerApi, workspaceRoot } from './sessionsHelpers';

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
});
