import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import {
  activateExtension,
  copyFixtures,
  describeDiagnostics,
  expectedFindings,
  sameCodes,
  waitForDiagnostics,
} from './contractHelpers';

/** The quick fixes VS Code offers on a diagnostic's range (through the real CodeActionProvider registry). */
async function quickFixesFor(uri: vscode.Uri, diagnostic: vscode.Diagnostic): Promise<vscode.CodeAction[]> {
  const actions = (await vscode.commands.executeCommand(
    'vscode.executeCodeActionProvider',
    uri,
    diagnostic.range,
    vscode.CodeActionKind.QuickFix.value,
  )) as vscode.CodeAction[];
  return actions;
}

describe('contract editor: quick fixes', () => {
  let dir: string;
  const expected = expectedFindings();

  before(async () => {
    await activateExtension();
    ({ dir } = copyFixtures('contract-quick-fixes'));
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  /** Opens a fixture, applies the preferred fix for each finding with `code`, returns the settled diagnostics. */
  async function applyFix(name: string, code: string, after: string[]): Promise<vscode.TextDocument> {
    const uri = vscode.Uri.file(join(dir, `${name}.loop-contract.json`));
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const diagnostics = await waitForDiagnostics(uri, (d) => d.some((x) => x.code === code));
    const target = diagnostics.find((d) => d.code === code)!;
    const fixes = await quickFixesFor(uri, target);
    // Two missing fields are both marked on the same brace: their shared fix is listed once.
    assert.equal(new Set(fixes.map((f) => f.title)).size, fixes.length, 'a fix is listed twice');
    const fix = fixes.find((f) => f.isPreferred) ?? fixes[0];
    assert.ok(fix?.edit, `no quick fix for ${code} in ${name}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    await waitForDiagnostics(uri, sameCodes(after));
    return document;
  }

  it('fixes a direction that disagrees with baseline → target, and the contract validates clean', async () => {
    const doc = await applyFix('direction-disagrees', 'direction-disagrees', []);
    assert.equal((JSON.parse(doc.getText()) as any).quality_rubric[0].direction, 'lower-is-better'); // eslint-disable-line @typescript-eslint/no-explicit-any
  });

  it('replaces a misspelled direction word with the one baseline → target implies', async () => {
    const others = expected.declarations!.filter((f) => f.code !== 'bad-direction').map((f) => f.code);
    const doc = await applyFix('declarations', 'bad-direction', others);
    assert.match(doc.getText(), /"dimension": "sideways",[\s\S]*?"direction": "lower-is-better"/);
  });

  it('declares "must_not_regress": true where the target equals the baseline', async () => {
    const doc = await applyFix('target-equals-baseline', 'target-equals-baseline', []);
    const rubric = (JSON.parse(doc.getText()) as { quality_rubric: Record<string, unknown>[] })
      .quality_rubric;
    assert.equal(rubric[1]!.must_not_regress, true);
    assert.match(doc.getText(), /\n {6}"must_not_regress": true\n/, 'indented like its siblings');
  });

  it('removes unknown keys, one fix each, leaving a clean contract', async () => {
    await applyFix('unknown-keys', 'unknown-field', ['unknown-key']);
    const doc = await applyFix('unknown-keys', 'unknown-key', []);
    assert.doesNotMatch(doc.getText(), /colour|notes/);
  });

  it('inserts the missing fields and keys as a blank skeleton, each blank then listed to fill in', async () => {
    await applyFix('missing-fields', 'missing-field', ['empty-field', 'empty-field', 'missing-key']);
    const doc = await applyFix('missing-fields', 'missing-key', ['empty-field', 'empty-field']);
    const diagnostics = await waitForDiagnostics(doc.uri, (d) => d.length === 2);
    assert.deepEqual(
      describeDiagnostics(doc, diagnostics).map((f) => f.text),
      ['""', '""'],
    );
    const contract = JSON.parse(doc.getText()) as { owner: string; quality_rubric: { weight: number }[] };
    assert.equal(contract.owner, '');
    assert.equal(contract.quality_rubric[0]!.weight, 1);
  });

  it('offers no fix where the right edit is not clear (a placeholder in a command)', async () => {
    const uri = vscode.Uri.file(join(dir, 'evidence-commands.loop-contract.json'));
    await vscode.workspace.openTextDocument(uri);
    const diagnostics = await waitForDiagnostics(uri, (d) => d.length === 3);
    for (const diagnostic of diagnostics) assert.deepEqual(await quickFixesFor(uri, diagnostic), []);
  });
});
