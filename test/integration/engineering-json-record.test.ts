// Loop-engineering in a real VS Code, beyond `.loop.md`: a JSON contract of that kind in
// `.loop/contracts/` gets the loop-engineering diagnostics (the same findings as `loop-ledger
// validate --strict --json`), schema completion and CodeLens — and switches with its `kind` —
// and Record Iteration asks a loop-engineering session for spent budget, the termination signal
// and NO_OP (and a plain session for none of them), through the CLI's own operation.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { CommandReport } from '../../src/extension/commands/deps';
import type { LoopLedgerApi } from '../../src/extension/extension';
import { ScriptedPrompter, type ScriptedAnswer } from '../hooks/scriptedPrompter';
import { repoRoot, waitForDiagnostics, workspaceRoot } from './contractHelpers';
import { loopLedgerApi, testingApi } from './sessionsHelpers';

function cli(...args: string[]): {
  status: number | null;
  json: Record<string, unknown> | undefined;
  stderr: string;
} {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.ELECTRON_RUN_AS_NODE;
  const run = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), ...args], {
    encoding: 'utf8',
    env,
  });
  const json = args.includes('--json') && run.stdout ? JSON.parse(run.stdout) : undefined;
  return { status: run.status, json, stderr: run.stderr };
}

/** The valid fixture contract as the JSON form, with `overrides` (null drops a key). */
function engineeringJson(overrides: Record<string, string | null> = {}): Record<string, string> {
  const fields: Record<string, string> = {
    kind: 'loop-engineering',
    objective: 'Repair the bounded failing workflow.',
    mode: 'Goal.',
    trigger: 'Manual start from fresh failure evidence.',
    scope: 'One package and its tests.',
    non_goals: 'No dependency upgrades.',
    owner: 'Primary agent.',
    inputs: 'Failure log and current repository state.',
    artifacts_path: '.loop/artifacts/',
    state_path: '.loop/ledgers/',
    work_clock: '.loop/work-clock.md',
    success_metric: 'Tests and lint both exit zero.',
    evidence: 'Fresh command output and diff.',
    verifier: 'Deterministic test and lint commands.',
    topology: 'single-agent',
    max_iterations: '4',
    time_limit: '35 minutes',
    budget: '18 tool calls',
    review_budget: '800 changed lines and 8 files',
    stop_condition: 'Verifier passes or a finite cap fires.',
    write_back: 'Append the receipt to the state path.',
    permission_boundary: 'Local-only writes; no production or external changes.',
    recovery: 'Restore the prior checkpoint after a regression.',
  };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === null) delete fields[key];
    else fields[key] = value;
  }
  return fields;
}

const labelsOf = (list: vscode.CompletionList) =>
  list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label).replace(/^"|"$/g, ''));

describe('loop-engineering JSON contracts and Record Iteration in the editor', () => {
  let api: LoopLedgerApi;
  let contracts: string;
  const created: string[] = [];

  before(async () => {
    api = await loopLedgerApi();
    contracts = join(workspaceRoot(), '.loop', 'contracts');
    mkdirSync(contracts, { recursive: true });
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const file of created) rmSync(file, { force: true });
    await api.sessions.refreshAll();
  });

  function write(name: string, text: string): string {
    const file = join(contracts, name);
    writeFileSync(file, text);
    created.push(file);
    return file;
  }

  it('a JSON contract of kind loop-engineering gets its diagnostics (as the CLI finds them), its completion, and switches with kind', async () => {
    const file = write(
      'nightly-eng.json',
      `${JSON.stringify(engineeringJson({ budget: null, mode: 'nightly' }), null, 2)}\n`,
    );
    const fromCli = cli('validate', '--strict', '--json', file);
    assert.equal(fromCli.status, 1, fromCli.stderr);
    const expected = (fromCli.json!.findings as { code: string }[]).map((f) => f.code);
    assert.deepEqual(expected, ['missing-field:budget', 'invalid-mode']);
    const document = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(document);
    const shown = await waitForDiagnostics(document.uri, (d) => d.length === expected.length);
    assert.deepEqual(
      shown.map((d) => String(d.code)),
      expected,
    );
    assert.equal(document.getText(shown[1]!.range), '"mode"');

    // The JSON language server offers the loop-engineering keys (the missing budget), not the work-loop ones.
    const inside = document.positionAt(document.getText().indexOf('\n') + 1);
    let labels: string[] = [];
    for (const deadline = Date.now() + 20_000; Date.now() < deadline && !labels.includes('budget');) {
      labels = labelsOf(
        await vscode.commands.executeCommand<vscode.CompletionList>(
          'vscode.executeCompletionItemProvider',
          document.uri,
          inside,
        ),
      );
      if (!labels.includes('budget')) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(labels.includes('budget'), labels.join(', '));
    assert.ok(!labels.includes('quality_rubric'), labels.join(', '));

    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      document.uri,
    );
    assert.equal(lenses[0]?.command?.command, 'loopLedger.openEngineeringLoop');

    // Another kind: the work-loop validator judges it, and completion offers the work-loop keys.
    const kindAt = document.getText().indexOf('"loop-engineering"');
    const kindRange = new vscode.Range(
      document.positionAt(kindAt),
      document.positionAt(kindAt + '"loop-engineering"'.length),
    );
    assert.ok(await editor.edit((e) => e.replace(kindRange, '"work-loop"')));
    const workLoop = await waitForDiagnostics(
      document.uri,
      (d) => d.length > 0 && d.every((x) => !String(x.code).includes(':') && x.code !== 'invalid-mode'),
    );
    assert.ok(workLoop.some((d) => d.code === 'unknown-field'));
    let workLabels: string[] = [];
    for (
      const deadline = Date.now() + 20_000;
      Date.now() < deadline && !workLabels.includes('quality_rubric');
    ) {
      workLabels = labelsOf(
        await vscode.commands.executeCommand<vscode.CompletionList>(
          'vscode.executeCompletionItemProvider',
          document.uri,
          inside,
        ),
      );
      if (!workLabels.includes('quality_rubric')) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(workLabels.includes('quality_rubric'), workLabels.join(', '));
    assert.ok(!workLabels.includes('budget'), workLabels.join(', '));

    // And back: the loop-engineering findings return, the work-loop ones are gone.
    const backAt = document.getText().indexOf('"work-loop"');
    assert.ok(
      await editor.edit((e) =>
        e.replace(
          new vscode.Range(document.positionAt(backAt), document.positionAt(backAt + '"work-loop"'.length)),
          '"loop-engineering"',
        ),
      ),
    );
    const again = await waitForDiagnostics(
      document.uri,
      (d) => d.length === expected.length && d[0]?.code === expected[0],
    );
    assert.deepEqual(
      again.map((d) => String(d.code)),
      expected,
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  describe('Record Iteration on a loop-engineering session', () => {
    const root = () => workspaceRoot();
    const ledger = (session: string) =>
      JSON.parse(readFileSync(join(root(), '.loop', 'ledgers', `${session}.json`), 'utf8'));

    async function record(session: string, script: ScriptedAnswer[]) {
      const prompter = new ScriptedPrompter(script);
      const using = (await testingApi()).prompter.use(prompter);
      try {
        await api.sessions.refreshAll();
        const report = (await vscode.commands.executeCommand('loopLedger.recordIteration', {
          root: root(),
          session,
        })) as CommandReport<Record<string, unknown>>;
        assert.deepEqual(prompter.remaining, [], 'unused scripted answers');
        return { report, prompter };
      } finally {
        using.dispose();
      }
    }

    function openSession(session: string, contract: Record<string, string>): void {
      const file = write(`${session}.json`, `${JSON.stringify(contract, null, 2)}\n`);
      const opened = cli('open', '--root', root(), '--session', session, '--engineering', file);
      assert.equal(opened.status, 0, opened.stderr);
      created.push(join(root(), '.loop', 'ledgers', `${session}.json`));
    }

    const plainStart: ScriptedAnswer[] = [
      { step: 'record.outcome', pick: 'continue' },
      { step: 'record.actions', text: '' },
    ];

    it('asks for spent budget and the termination signal, and records them as the CLI would', async () => {
      openSession('eng-record', engineeringJson());
      const { report } = await record('eng-record', [
        ...plainStart,
        { step: 'record.details', pickMany: [] },
        { step: 'record.engineering', pickMany: ['Budget spent', 'Termination signal'] },
        { step: 'record.spent', text: 'calls=5, tokens=1200' },
        { step: 'record.termination', text: 'tool_use' },
      ]);
      assert.equal(report.status, 'done', report.message);
      assert.match(report.cli!, /--spent calls=5 --spent tokens=1200 --termination tool_use/);
      const onDisk = ledger('eng-record');
      const last = onDisk.iterations.at(-1);
      assert.equal(last.termination_reason, 'tool_request');
      assert.deepEqual(last.spent, { calls: 5, ms: 0, tokens: 1200, usd: 0 });
      assert.equal(onDisk.engineering.spent.calls, 5);

      // The spent budget reaches the call cap: continue becomes a budget stop, never success.
      const { report: stop } = await record('eng-record', [
        ...plainStart,
        { step: 'record.details', pickMany: [] },
        { step: 'record.engineering', pickMany: ['Budget spent'] },
        { step: 'record.spent', text: 'calls=13' },
      ]);
      assert.equal(stop.status, 'done', stop.message);
      assert.equal(ledger('eng-record').iterations.at(-1).loop_status, 'BUDGET_STOP');
    });

    it('records a NO_OP the contract allows, and shows the engine refusing one it does not', async () => {
      openSession('eng-noop', engineeringJson({ no_op: 'gh pr list --label ready | wc -l' }));
      const quiet = (eligible: string): ScriptedAnswer[] => [
        ...plainStart,
        { step: 'record.details', pickMany: ['Evidence paths'] },
        { step: 'record.evidencePaths', text: 'query.txt' },
        { step: 'record.engineering', pickMany: ['NO_OP'] },
        { step: 'record.noOp.eligibleCount', text: eligible },
        { step: 'record.noOp.outputCount', text: '0' },
        { step: 'record.noOp.sideEffects', text: '0' },
      ];
      const refused = await record('eng-noop', quiet('2'));
      assert.equal(refused.report.status, 'refused');
      assert.equal(refused.report.exitCode, 1);
      assert.match(
        refused.report.findings!.join('\n'),
        /--eligible-count 2: the eligibility query found work/,
      );
      assert.equal(ledger('eng-noop').iterations.length, 0);
      const accepted = await record('eng-noop', quiet('0'));
      assert.equal(accepted.report.status, 'done', accepted.report.message);
      assert.match(accepted.report.cli!, /--no-op --eligible-count 0 --output-count 0 --side-effects 0/);
      assert.equal(ledger('eng-noop').iterations.at(-1).loop_status, 'NO_OP');
    });

    it('refuses a complete without a passing verifier and evidence, as the CLI does', async () => {
      openSession('eng-done', engineeringJson());
      const { report } = await record('eng-done', [
        { step: 'record.outcome', pick: 'complete' },
        { step: 'record.actions', text: '' },
        { step: 'record.details', pickMany: [] },
        { step: 'record.engineering', pickMany: [] },
      ]);
      assert.equal(report.status, 'refused');
      assert.equal(report.exitCode, 1);
      const findings = report.findings!.join('\n');
      assert.match(findings, /the contract's verifier .* must pass on this iteration/);
      // The extension words the CLI's flags as its own questions (“Evidence paths”).
      assert.match(findings, /complete needs .*Evidence paths/);
      assert.equal(ledger('eng-done').iterations.length, 0);
      assert.equal(ledger('eng-done').status, 'open');
    });

    it('asks a plain session none of the loop-engineering questions', async () => {
      const contract = join(repoRoot, 'test', 'fixtures', 'contracts', 'valid.loop-contract.json');
      const opened = cli('open', '--root', root(), '--session', 'plain-record', '--contract', contract);
      assert.equal(opened.status, 0, opened.stderr);
      created.push(join(root(), '.loop', 'ledgers', 'plain-record.json'));
      const { report, prompter } = await record('plain-record', [
        ...plainStart,
        { step: 'record.measure', pick: 'No measurements' },
        { step: 'record.details', pickMany: [] },
      ]);
      assert.equal(report.status, 'done', report.message);
      assert.ok(!prompter.asked.some((q) => q.id.startsWith('record.engineering')));
      assert.equal('loop_status' in ledger('plain-record').iterations.at(-1), false);
    });
  });
});
