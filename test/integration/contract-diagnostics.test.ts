import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ScriptedPrompter, type ScriptedAnswer } from '../hooks/scriptedPrompter';
import type { TestingApi } from '../hooks/testHooks';
import { testingApi } from './sessionsHelpers';
import {
  activateExtension,
  copyFixtures,
  describeDiagnostics,
  expectedFindings,
  sameCodes,
  waitForDiagnostics,
  workspaceRoot,
} from './contractHelpers';

describe('contract editor: diagnostics, CodeLens, New Contract', () => {
  let dir: string;
  let names: string[];
  const uriOf = (name: string) => vscode.Uri.file(join(dir, `${name}.loop-contract.json`));

  before(async () => {
    await activateExtension();
    ({ dir, names } = copyFixtures('contract-diagnostics'));
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(dir, { recursive: true, force: true });
  });

  it('marks each finding of each fixture on the exact key or value, with its code', async () => {
    const expected = expectedFindings();
    assert.deepEqual([...names].sort(), Object.keys(expected).sort());
    for (const name of names) {
      const document = await vscode.workspace.openTextDocument(uriOf(name));
      const want = expected[name]!;
      const diagnostics = await waitForDiagnostics(document.uri, sameCodes(want.map((f) => f.code)));
      assert.deepEqual(describeDiagnostics(document, diagnostics), want, name);
      for (const d of diagnostics) assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    }
  });

  it('re-validates after typing (debounced) and clears the diagnostics when the document closes', async () => {
    const uri = uriOf('valid');
    const editor = await vscode.window.showTextDocument(uri);
    await waitForDiagnostics(uri, (d) => d.length === 0);
    const text = editor.document.getText();
    const at = text.indexOf('"lower-is-better"');
    await editor.edit((edit) =>
      edit.replace(
        new vscode.Range(editor.document.positionAt(at), editor.document.positionAt(at + 17)),
        '"higher-is-better"',
      ),
    );
    const [diagnostic] = await waitForDiagnostics(uri, sameCodes(['direction-disagrees']));
    assert.equal(editor.document.getText(diagnostic!.range), '"higher-is-better"');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await waitForDiagnostics(uri, (d) => d.length === 0);
  });

  it('gives the editor the authoring schema: hover from it, every finding once, from the engine', async () => {
    const contract = JSON.parse(readFileSync(uriOf('valid').fsPath, 'utf8'));
    contract.quality_rubric[0].weight = 0;
    contract.colour = 'red';
    const uri = vscode.Uri.file(join(dir, 'schema-rule.loop-contract.json'));
    writeFileSync(uri.fsPath, `${JSON.stringify(contract, null, 2)}\n`);
    try {
      const document = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(document);
      const ours = await waitForDiagnostics(uri, (d) => d.length === 2);
      assert.deepEqual(ours.map((d) => document.getText(d.range)).sort(), ['"colour"', '0']);
      // The JSON language server has the schema once it answers hover from it.
      const deadline = Date.now() + 20_000;
      let hoverText = '';
      while (Date.now() < deadline && !/Why the loop exists/.test(hoverText)) {
        const hovers = (await vscode.commands.executeCommand(
          'vscode.executeHoverProvider',
          uri,
          document.positionAt(document.getText().indexOf('"purpose"') + 2),
        )) as vscode.Hover[];
        hoverText = hovers
          .flatMap((h) => h.contents)
          .map((c) => (typeof c === 'string' ? c : c.value))
          .join('\n');
        if (!/Why the loop exists/.test(hoverText)) await new Promise((r) => setTimeout(r, 250));
      }
      assert.match(hoverText, /Why the loop exists/);
      // It has validated the file by now too: no second copy of either finding.
      await new Promise((r) => setTimeout(r, 1_500));
      const others = vscode.languages.getDiagnostics(uri).filter((d) => d.source !== 'Loop Ledger');
      assert.deepEqual(
        others.map((d) => d.message),
        [],
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      rmSync(uri.fsPath, { force: true });
    }
  });

  it('shows "Open loop with this contract" and "Validate" lenses; Validate checks the file', async () => {
    const uri = uriOf('valid');
    const lenses = (await vscode.commands.executeCommand(
      'vscode.executeCodeLensProvider',
      uri,
    )) as vscode.CodeLens[];
    const commands = lenses.map((lens) => lens.command!);
    assert.deepEqual(
      commands.map((c) => [c.title, c.command]),
      [
        ['Open loop with this contract', 'loopLedger.openLoop'],
        ['Validate', 'loopLedger.validateContract'],
      ],
    );
    for (const command of commands) assert.equal((command.arguments![0] as vscode.Uri).fsPath, uri.fsPath);
    const validate = commands[1]!;
    const result = await vscode.commands.executeCommand(validate.command, ...validate.arguments!);
    assert.deepEqual(result, {
      file: 'contract-diagnostics/valid.loop-contract.json',
      valid: true,
      findings: 0,
    });
    const invalid = await vscode.commands.executeCommand(validate.command, uriOf('declarations'));
    assert.deepEqual(invalid, {
      file: 'contract-diagnostics/declarations.loop-contract.json',
      valid: false,
      findings: 5,
    });
  });

  it('"Open loop with this contract" opens a loop on that contract through Open Loop', async () => {
    const api = await testingApi();
    const lens = (
      (await vscode.commands.executeCommand(
        'vscode.executeCodeLensProvider',
        uriOf('valid'),
      )) as vscode.CodeLens[]
    ).find((l) => l.command?.command === 'loopLedger.openLoop')!;
    // Open Loop skips its contract question: the lens hands it the contract.
    const prompter = new ScriptedPrompter([
      { step: 'open.session', text: 'from-the-lens' },
      { step: 'open.stallThreshold', text: '3' },
      { step: 'open.baselineEvidence', pickMany: [] },
    ]);
    const scripted = api.prompter.use(prompter);
    try {
      await vscode.commands.executeCommand(lens.command!.command, ...lens.command!.arguments!);
    } finally {
      scripted.dispose();
    }
    assert.deepEqual(prompter.remaining, []);
    const ledger = join(workspaceRoot(), '.loop', 'ledgers', 'from-the-lens.json');
    try {
      const written = JSON.parse(readFileSync(ledger, 'utf8')) as { contract: { purpose: string } };
      assert.equal(written.contract.purpose, 'Clear the TODO markers from the greeting module');
    } finally {
      rmSync(join(workspaceRoot(), '.loop'), { recursive: true, force: true });
    }
  });

  describe('Loop Ledger: New Contract', () => {
    let api: TestingApi;
    let scripted: vscode.Disposable | undefined;
    const contracts = () => join(workspaceRoot(), '.loop', 'contracts');

    before(async () => {
      api = await testingApi();
    });
    afterEach(() => scripted?.dispose());
    after(() => rmSync(join(workspaceRoot(), '.loop'), { recursive: true, force: true }));

    async function withAnswers<T>(answers: ScriptedAnswer[], run: () => Thenable<T>): Promise<T> {
      // Scripted answers go in through the extension's prompter slot; the command runs for real.
      const prompter = new ScriptedPrompter(answers);
      scripted = api.prompter.use(prompter);
      const result = await run();
      assert.deepEqual(prompter.remaining, []);
      return result;
    }

    it('creates .loop/contracts/<name>.json from the blank template, opens it and lists what to fill in', async () => {
      const result = (await withAnswers(
        [
          { step: 'newContract.kind', pick: 'Work-loop contract (JSON)' },
          { step: 'newContract.name', text: 'tidy-greeting' },
        ],
        () => vscode.commands.executeCommand('loopLedger.newContract'),
      )) as { created: string };
      const file = join(contracts(), 'tidy-greeting.json');
      assert.equal(result.created, file);
      const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      assert.equal(Object.keys(written).length, 12);
      assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, file);
      const diagnostics = await waitForDiagnostics(vscode.Uri.file(file), (d) => d.length > 0);
      assert.ok(
        diagnostics.every((d) =>
          ['empty-field', 'bad-iteration-limit', 'empty-dimension-name'].includes(String(d.code)),
        ),
      );
    });

    it('refuses a name already taken, the disk checked asynchronously so the extension host never waits', async () => {
      const taken = join(contracts(), 'tidy-greeting.json');
      assert.ok(existsSync(taken), 'created by the test above');
      const before = readFileSync(taken, 'utf8');
      await assert.rejects(
        withAnswers(
          [
            { step: 'newContract.kind', pick: 'Work-loop contract (JSON)' },
            { step: 'newContract.name', text: 'tidy-greeting' },
          ],
          () => vscode.commands.executeCommand('loopLedger.newContract'),
        ),
        /newContract\.name: "tidy-greeting" refused: \.loop\/contracts\/tidy-greeting already exists/,
      );
      assert.equal(readFileSync(taken, 'utf8'), before, 'the existing contract is untouched');
    });

    it('writes nothing when the name question is cancelled', async () => {
      const result = await withAnswers(
        [
          { step: 'newContract.kind', pick: 'Work-loop contract (JSON)' },
          { step: 'newContract.name', cancel: true },
        ],
        () => vscode.commands.executeCommand('loopLedger.newContract'),
      );
      assert.deepEqual(result, { created: undefined, reason: 'cancelled' });
      assert.equal(existsSync(join(contracts(), 'undefined.json')), false);
    });
  });
});
