// The `.loop.md` contract editor in a real VS Code: its diagnostics agree with `loop-ledger
// validate --strict --json` (the built CLI as a child process) on every fixture, strict-only
// findings are warnings, a quick fix authors the missing fields, and the CodeLens command opens
// a loop whose ledger carries the contract's caps.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ScriptedPrompter } from '../hooks/scriptedPrompter';
import type { LoopLedgerApi } from '../../src/extension/extension';
import { repoRoot, waitForDiagnostics, workspaceRoot } from './contractHelpers';
import { loopLedgerApi, testingApi, waitFor } from './sessionsHelpers';

interface CliFinding {
  code: string;
  message: string;
  field: string | null;
  line: number | null;
}

function validateWithCli(file: string): { exitCode: number | null; findings: CliFinding[] } {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.ELECTRON_RUN_AS_NODE;
  const run = spawnSync(
    process.execPath,
    [join(repoRoot, 'dist', 'cli.js'), 'validate', '--strict', '--json', file],
    {
      encoding: 'utf8',
      env,
    },
  );
  assert.ok(run.stdout, `no stdout from the CLI: ${run.stderr}`);
  return { exitCode: run.status, findings: (JSON.parse(run.stdout) as { findings: CliFinding[] }).findings };
}

const STRICT_ONLY = new Set([
  'review-budget-over-1000',
  'manager-workers-needs-integration-gate',
  'automation-needs-event-trigger',
]);

describe('loop-engineering contracts (.loop.md) in the editor', () => {
  let api: LoopLedgerApi;
  let dir: string;

  before(async () => {
    api = await loopLedgerApi();
    dir = join(workspaceRoot(), '.loop', 'contracts');
    mkdirSync(dir, { recursive: true });
    const fixtures = join(repoRoot, 'test', 'fixtures', 'engineering');
    for (const name of readdirSync(fixtures)) cpSync(join(fixtures, name), join(dir, name));
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const name of readdirSync(dir))
      if (name.endsWith('.loop.md')) rmSync(join(dir, name), { force: true });
  });

  it('agrees with `loop-ledger validate --strict --json` on every fixture: codes, messages, lines', async () => {
    const names = readdirSync(dir)
      .filter((n) => n.endsWith('.loop.md'))
      .sort();
    assert.ok(names.length >= 5);
    for (const name of names) {
      const file = join(dir, name);
      const cli = validateWithCli(file);
      assert.equal(cli.exitCode, cli.findings.length === 0 ? 0 : 1, name);
      const document = await vscode.workspace.openTextDocument(file);
      const diagnostics = await waitForDiagnostics(document.uri, (d) => d.length === cli.findings.length);
      assert.deepEqual(
        diagnostics.map((d) => String(d.code)),
        cli.findings.map((f) => f.code),
        name,
      );
      diagnostics.forEach((d, i) => {
        const f = cli.findings[i]!;
        assert.ok(d.message.startsWith(f.message), `${name}: ${d.message}`);
        if (f.line !== null) assert.equal(d.range.start.line + 1, f.line, `${name}: ${f.code}`);
        const expected = STRICT_ONLY.has(f.code)
          ? vscode.DiagnosticSeverity.Warning
          : vscode.DiagnosticSeverity.Error;
        assert.equal(d.severity, expected, `${name}: ${f.code}`);
      });
    }
  });

  it('a quick fix inserts the missing fields as a template, another writes a canonical mode', async () => {
    const file = join(dir, 'authored.loop.md');
    await vscode.workspace.fs.writeFile(
      vscode.Uri.file(file),
      Buffer.from('# New loop\n\nObjective: Keep the docs links alive.\nMode: nightly\n'),
    );
    const document = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(document);
    const before = await waitForDiagnostics(document.uri, (d) => d.some((x) => x.code === 'invalid-mode'));
    const fixAt = async (code: string, title: RegExp) => {
      const diagnostic =
        before.find((d) => d.code === code) ??
        (await waitForDiagnostics(document.uri, (d) => d.some((x) => x.code === code))).find(
          (d) => d.code === code,
        )!;
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        document.uri,
        diagnostic.range,
        vscode.CodeActionKind.QuickFix.value,
      );
      const action = actions.find((a) => title.test(a.title));
      assert.ok(action?.edit, `no quick fix ${title} among ${actions.map((a) => a.title).join(', ')}`);
      assert.ok(await vscode.workspace.applyEdit(action.edit));
    };
    await fixAt('missing-field:budget', /^Insert the 20 missing field\(s\) as a template$/);
    await waitForDiagnostics(document.uri, (d) => d.length === 1 && d[0]!.code === 'invalid-mode');
    const mode = (await waitForDiagnostics(document.uri, (d) => d.length === 1))[0]!;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      document.uri,
      mode.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    assert.deepEqual(
      actions.map((a) => a.title),
      ['Mode: Goal', 'Mode: Loop', 'Mode: Automation', 'Mode: AutoResearch'],
    );
    assert.ok(await vscode.workspace.applyEdit(actions[1]!.edit!));
    await waitForDiagnostics(document.uri, (d) => d.length === 0);
    await document.save();
    assert.equal(validateWithCli(file).exitCode, 0);
  });

  it('New Contract offers the loop-engineering kind: a .loop.md with every field to fill in', async () => {
    const prompter = new ScriptedPrompter([
      { step: 'newContract.kind', pick: 'Loop-engineering contract (.loop.md)' },
      { step: 'newContract.name', text: 'nightly-links' },
    ]);
    const using = (await testingApi()).prompter.use(prompter);
    try {
      const result = (await vscode.commands.executeCommand('loopLedger.newContract')) as { created: string };
      assert.equal(result.created, join(dir, 'nightly-links.loop.md'));
      const diagnostics = await waitForDiagnostics(vscode.Uri.file(result.created), (d) => d.length === 22);
      assert.ok(diagnostics.every((d) => String(d.code).startsWith('missing-field:')));
      assert.deepEqual(prompter.remaining, []);
    } finally {
      using.dispose();
    }
  });

  it('completes field names and mode words', async () => {
    const file = join(dir, 'complete.loop.md');
    await vscode.workspace.fs.writeFile(vscode.Uri.file(file), Buffer.from('Objective: x\nMode: \n'));
    const document = await vscode.workspace.openTextDocument(file);
    const modes = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      document.uri,
      new vscode.Position(1, 6),
    );
    const labels = modes.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const word of ['Goal', 'Loop', 'Automation', 'AutoResearch']) assert.ok(labels.includes(word), word);
    const fields = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      document.uri,
      new vscode.Position(2, 0),
    );
    const names = fields.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const name of ['Permission boundary', 'Review budget', 'Max iterations'])
      assert.ok(names.includes(name), name);
  });

  it('the CodeLens opens a loop under the contract; an inadmissible one is refused with NEEDS_INPUT', async () => {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      vscode.Uri.file(join(dir, 'valid.loop.md')),
    );
    assert.equal(lenses[0]?.command?.command, 'loopLedger.openEngineeringLoop');
    const prompter = new ScriptedPrompter([
      { step: 'openEngineering.session', text: 'eng-ci' },
      { step: 'openEngineering.session', text: 'eng-bad' },
    ]);
    const using = (await testingApi()).prompter.use(prompter);
    try {
      const report = (await vscode.commands.executeCommand(
        'loopLedger.openEngineeringLoop',
        ...(lenses[0]!.command!.arguments ?? []),
      )) as { status: string };
      assert.equal(report.status, 'done');
      const ledgerFile = join(workspaceRoot(), '.loop', 'ledgers', 'eng-ci.json');
      assert.ok(existsSync(ledgerFile));
      const ledger = JSON.parse(readFileSync(ledgerFile, 'utf8'));
      assert.deepEqual(ledger.engineering.caps.calls, 18);
      assert.equal(ledger.stall_threshold, 2);

      // Record through the CLI (as an agent would) until the call budget stops the loop; the
      // session's tooltip then shows the budget spent against each cap.
      const env = { ...process.env };
      delete env.NODE_OPTIONS;
      delete env.ELECTRON_RUN_AS_NODE;
      const iterate = (spent: string) =>
        spawnSync(
          process.execPath,
          [
            join(repoRoot, 'dist', 'cli.js'),
            'iterate',
            '--root',
            workspaceRoot(),
            '--session',
            'eng-ci',
            '--outcome',
            'continue',
            '--spent',
            spent,
            '--json',
          ],
          { encoding: 'utf8', env },
        );
      assert.equal(JSON.parse(iterate('calls=10').stdout).outcome, 'continue');
      const stopped = JSON.parse(iterate('calls=8').stdout);
      assert.equal(stopped.stall, 'budget-stop');
      assert.equal(stopped.loop_status, 'BUDGET_STOP');
      await api.sessions.refreshAll();
      const tooltip = await waitFor(
        'the budget in the session tooltip',
        () => {
          const node = api.sessions
            .childrenOf()
            .find((n) => n.kind === 'session' && n.entry.session === 'eng-ci');
          const md =
            node && (api.sessions.getTreeItem(node).tooltip as vscode.MarkdownString | undefined)?.value;
          return md && md.includes('calls 18/18') ? md : undefined;
        },
        5_000,
      );
      assert.match(tooltip, /Budget spent \/ cap/);
      assert.match(tooltip, /iterations 2\/4/);
      const refused = (await vscode.commands.executeCommand(
        'loopLedger.openEngineeringLoop',
        vscode.Uri.file(join(dir, 'strict-only.loop.md')),
      )) as { status: string; findings: string[] };
      assert.equal(refused.status, 'refused');
      assert.match(refused.findings[0]!, /NEEDS_INPUT/);
      assert.equal(refused.findings.length, 4);
    } finally {
      using.dispose();
      rmSync(join(workspaceRoot(), '.loop', 'ledgers', 'eng-ci.json'), { force: true });
      await api.sessions.refreshAll();
    }
  });
});
