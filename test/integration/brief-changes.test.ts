// The critic brief from each kind of git change, inside a real extension host: the evidence
// commands run in the "Loop Ledger evidence" terminal and their transcript becomes the
// verification output; "Open in diff editor" shows the file before and after for staged changes,
// the last commit and a commit range (each side read from git at the right revision).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { openOp } from '../../src/app/contract/operations';
import type { AssembleResult } from '../../src/extension/brief/assembleBrief';
import type { BriefPanel } from '../../src/extension/brief/briefPanel';
import { ScriptedPrompter, type ScriptedAnswer } from '../hooks/scriptedPrompter';
import { testingApi, workspaceRoot } from './sessionsHelpers';

const SESSION = 'changes-it';
const FILE = 'src/greet.js';

const contract = {
  purpose: 'Exercise briefs over staged changes, commits and ranges',
  owner: 'integration tests',
  starting_state: 'a one-line greeting',
  inputs: [FILE],
  expected_outputs: ['a friendlier greeting'],
  success_criteria: ['tests pass'],
  failure_criteria: ['a test fails'],
  dependencies: ['node'],
  iteration_limit: 9,
  timeout_behaviour: 'record pause',
  escalation_path: 'ask a person',
  quality_rubric: [
    {
      dimension: 'tests',
      evidence_command: 'echo 12 passing',
      baseline: 10,
      target: 12,
      weight: 100,
      failure_threshold: 9,
      direction: 'higher-is-better',
      hard_gate: true,
    },
  ],
};

describe('critic brief over staged changes, the last commit and a range', function () {
  this.timeout(90_000);
  const root = workspaceRoot();
  const original = readFileSync(join(root, FILE), 'utf8');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
  const panels: BriefPanel[] = [];
  const commit = (text: string, message: string) => {
    writeFileSync(join(root, FILE), text);
    git('add', FILE);
    git('commit', '--quiet', '-m', message);
    return git('rev-parse', 'HEAD').trim();
  };
  let first = '';
  let second = '';
  let third = '';

  before(() => {
    git('init', '--quiet');
    git('config', 'user.email', 'it@example.invalid');
    git('config', 'user.name', 'integration');
    mkdirSync(join(root, '.git', 'info'), { recursive: true });
    writeFileSync(join(root, '.git', 'info', 'exclude'), '.loop/\n');
    git('add', '-A');
    git('commit', '--quiet', '-m', 'initial');
    first = git('rev-parse', 'HEAD').trim();
    second = commit('exports.greet = (name) => `Hi, ${name}`;\n', 'second');
    third = commit('exports.greet = (name) => `Hello, ${name}!`;\n', 'third');
    const contracts = join(root, '.loop', 'contracts');
    mkdirSync(contracts, { recursive: true });
    writeFileSync(join(contracts, `${SESSION}.json`), JSON.stringify(contract));
    const opened = openOp(root, SESSION, {
      contractPath: join(contracts, `${SESSION}.json`),
      now: new Date(),
    });
    assert.equal(opened.exitCode, 0, JSON.stringify(opened.findings));
    mkdirSync(join(root, '.loop', 'evidence'), { recursive: true });
    writeFileSync(join(root, '.loop', 'evidence', 'suite.txt'), '12 passing\n');
  });

  after(async () => {
    for (const panel of panels) panel.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    writeFileSync(join(root, FILE), original);
    for (const path of [
      '.git',
      join('.loop', 'ledgers', `${SESSION}.json`),
      join('.loop', 'contracts', `${SESSION}.json`),
      join('.loop', 'evidence'),
    ])
      rmSync(join(root, path), { recursive: true, force: true });
  });

  async function assemble(change: ScriptedAnswer[], verification: ScriptedAnswer[]): Promise<BriefPanel> {
    const script = new ScriptedPrompter([
      { step: 'brief.session', pick: SESSION },
      ...change,
      ...verification,
    ]);
    const using = (await testingApi()).prompter.use(script);
    let result: AssembleResult;
    try {
      result = (await vscode.commands.executeCommand('loopLedger.assembleBrief')) as AssembleResult;
    } finally {
      using.dispose();
    }
    assert.deepEqual(script.remaining, []);
    assert.equal(result.status, 'shown', JSON.stringify(result));
    if (result.status !== 'shown') throw new Error('not shown');
    panels.push(result.panel);
    return result.panel;
  }

  const fromFile: ScriptedAnswer[] = [
    { step: 'brief.verificationSource', pick: 'From a file…' },
    { step: 'brief.verificationFile', text: '.loop/evidence/suite.txt' },
  ];

  /** Opens FILE in the diff editor from the panel, and returns both sides' text. */
  async function openDiff(panel: BriefPanel): Promise<{ left: string; right: string; leftUri: vscode.Uri }> {
    const posted: unknown[] = [];
    const listening = panel.onDidPost((m) => posted.push(m));
    assert.equal((await panel.receive({ type: 'ready' })).accepted, true);
    const opened = await panel.receive({ type: 'openDiff', requestId: `d-${panels.length}`, path: FILE });
    listening.dispose();
    assert.equal(opened.accepted, true);
    assert.ok(
      posted.some(
        (m) => (m as { type: string; ok?: boolean }).type === 'openDiffResult' && (m as { ok: boolean }).ok,
      ),
      JSON.stringify(posted),
    );
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(input instanceof vscode.TabInputTextDiff, 'the active tab is a diff editor');
    const left = (await vscode.workspace.openTextDocument(input.original)).getText();
    const right = (await vscode.workspace.openTextDocument(input.modified)).getText();
    return { left, right, leftUri: input.original };
  }

  it('runs the evidence commands in the "Loop Ledger evidence" terminal and keeps the transcript', async () => {
    writeFileSync(join(root, FILE), 'exports.greet = (name) => `Hello there, ${name}!`;\n');
    git('add', FILE);
    const panel = await assemble(
      [{ step: 'brief.change', pick: 'Staged changes' }],
      [
        { step: 'brief.verificationSource', pick: "Run the rubric's evidence commands" },
        { step: 'brief.confirmRun', confirm: true },
      ],
    );
    assert.match(panel.currentState.packet.verification, /\$ echo 12 passing\n12 passing\n\[exit 0\]/);
    assert.ok(vscode.window.terminals.some((t) => t.name === 'Loop Ledger evidence'));
  });

  it('opens staged changes as HEAD against the index', async () => {
    const panel = panels[0]!;
    const { left, right } = await openDiff(panel);
    assert.equal(left, git('show', `${third}:${FILE}`));
    assert.equal(right, git('show', `:${FILE}`));
    assert.match(right, /Hello there/);
  });

  it('opens the last commit as its parent against it', async () => {
    git('reset', '--quiet', '--hard', 'HEAD');
    const panel = await assemble([{ step: 'brief.change', pick: 'Last commit' }], fromFile);
    const { left, right } = await openDiff(panel);
    assert.equal(left, git('show', `${second}:${FILE}`));
    assert.equal(right, git('show', `${third}:${FILE}`));
  });

  it('opens a commit range as its first revision against its last', async () => {
    const panel = await assemble(
      [
        { step: 'brief.change', pick: 'Commit range' },
        { step: 'brief.range', text: `${first}..${third}` },
      ],
      fromFile,
    );
    const { left, right } = await openDiff(panel);
    assert.equal(left, original);
    assert.equal(right, git('show', `${third}:${FILE}`));
  });
});
