// `loop-ledger validate FILE --json` (the built CLI, as a child process) and the editor's
// diagnostics over the same fixture contracts: the same findings, codes and messages, in order,
// and each diagnostic sits on the node the CLI's JSON path names.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import * as vscode from 'vscode';
import {
  activateExtension,
  copyFixtures,
  repoRoot,
  waitForDiagnostics,
  workspaceRoot,
} from './contractHelpers';

interface CliFinding {
  code: string | null;
  message: string;
  path: (string | number)[];
}

function validateWithCli(file: string): { exitCode: number | null; findings: CliFinding[] } {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.ELECTRON_RUN_AS_NODE;
  const run = spawnSync(
    process.execPath,
    [join(repoRoot, 'dist', 'cli.js'), 'validate', file, '--json', '--root', workspaceRoot()],
    { encoding: 'utf8', env },
  );
  assert.ok(run.stdout, `no stdout from the CLI: ${run.stderr}`);
  return { exitCode: run.status, findings: (JSON.parse(run.stdout) as { findings: CliFinding[] }).findings };
}

describe('contract editor and `loop-ledger validate --json` agree', () => {
  let dir: string;
  let names: string[];

  before(async () => {
    await activateExtension();
    ({ dir, names } = copyFixtures('contract-agreement'));
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports the same findings for every fixture', async () => {
    for (const name of names) {
      const file = join(dir, `${name}.loop-contract.json`);
      const cli = validateWithCli(file);
      assert.equal(cli.exitCode, cli.findings.length === 0 ? 0 : 1, name);

      const document = await vscode.workspace.openTextDocument(file);
      const diagnostics = await waitForDiagnostics(document.uri, (d) => d.length === cli.findings.length);
      assert.deepEqual(
        diagnostics.map((d) => [String(d.code), d.message]),
        cli.findings.map((f) => [f.code, f.message]),
        name,
      );
      const tree = parseTree(document.getText())!;
      cli.findings.forEach((finding, i) => {
        const node = findNodeAtLocation(tree, finding.path);
        if (!node) return; // something missing: marked on its parent object, checked in the diagnostics suite
        const range = diagnostics[i]!.range;
        const start = document.offsetAt(range.start);
        const covers = start === node.offset || start === node.parent?.offset;
        assert.ok(covers, `${name}: ${finding.message} is not marked at its path`);
      });
    }
  });
});
