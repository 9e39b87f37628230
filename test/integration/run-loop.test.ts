// Run Loop in a real VS Code: the shipped fake agent to PASS with its phases on the session's
// tree node, the receipt viewer, and a run cancelled mid-coder (pause) then continued.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Ledger } from '../../src/engine/types';
import type { CommandReport } from '../../src/extension/commands/deps';
import type { LoopLedgerApi } from '../../src/extension/extension';
import { ScriptedPrompter, type ScriptedAnswer } from '../hooks/scriptedPrompter';
import type { RunOpResult } from '../../src/app/run/operation';
import { extensionPath, loopLedgerApi, testingApi, waitFor, workspaceRoot } from './sessionsHelpers';

function git(root: string, ...args: string[]): void {
  execFileSync('git', args, { cwd: root, stdio: 'ignore' });
}

/** Commits whatever earlier suites left in the workspace, so a run starts from a clean tree. */
function commitAll(): void {
  const root = workspaceRoot();
  git(root, 'add', '-A');
  git(root, 'commit', '--quiet', '--allow-empty', '-m', 'state before a run');
}

function status(): string {
  return execFileSync('git', ['status', '--porcelain'], { cwd: workspaceRoot(), encoding: 'utf8' }).replace(
    /\n/g,
    ' | ',
  );
}

const FAKE_AGENT = () => join(extensionPath(), 'examples', 'run', 'fake-agent.mjs');

function agentsToml(coder: string): string {
  const fake = `["{node}", ${JSON.stringify(FAKE_AGENT())}]`;
  return `[explorer]\ncmd = ${fake}\n\n[coder]\ncmd = ${coder}\nwrites = true\n\n[code-reviewer]\ncmd = ${fake}\n`;
}

describe('Run Loop (loop-ledger run in VS Code)', function () {
  this.timeout(120_000);
  let api: LoopLedgerApi;
  let root: string;
  const ledger = (session: string) =>
    JSON.parse(readFileSync(join(root, '.loop', 'ledgers', `${session}.json`), 'utf8')) as Ledger;

  async function run(script: ScriptedAnswer[], ...args: unknown[]): Promise<CommandReport<RunOpResult>> {
    const prompter = new ScriptedPrompter(script);
    const using = (await testingApi()).prompter.use(prompter);
    try {
      const report = (await vscode.commands.executeCommand(
        'loopLedger.runLoop',
        ...args,
      )) as CommandReport<RunOpResult>;
      assert.deepEqual(prompter.remaining, [], 'unused scripted answers');
      return report;
    } finally {
      using.dispose();
    }
  }

  const request = (session: string, config: ScriptedAnswer): ScriptedAnswer[] => [
    { step: 'run.session', text: session },
    { step: 'run.objective', text: 'Write the demo note' },
    { step: 'run.allow', text: 'docs/**' },
    { step: 'run.extraCheck', text: 'test -f docs/loop-demo.md' },
    config,
    { step: 'run.maxAttempts', text: '2' },
  ];

  before(async () => {
    api = await loopLedgerApi();
    root = workspaceRoot();
    git(root, 'init', '--quiet');
    git(root, 'config', 'user.email', 'it@example.invalid');
    git(root, 'config', 'user.name', 'integration');
    mkdirSync(join(root, '.git', 'info'), { recursive: true });
    writeFileSync(join(root, '.git', 'info', 'exclude'), '.loop/\n');
    git(root, 'add', '-A');
    git(root, 'commit', '--quiet', '--allow-empty', '-m', 'initial');
  });

  after(() => {
    for (const path of [
      '.git',
      'docs',
      join('.loop', 'runs'),
      join('.loop', 'slow-agents.toml'),
      join('.loop', 'broken-agents.toml'),
    ])
      rmSync(join(root, path), { recursive: true, force: true });
    for (const session of ['it-run', 'it-cancel', 'it-broken-config'])
      rmSync(join(root, '.loop', 'ledgers', `${session}.json`), { force: true });
    void api.sessions.refreshAll();
  });

  it('runs the shipped fake agent to PASS, through every phase, one iteration per attempt', async () => {
    api.runs.history.length = 0;
    commitAll();
    const report = await run(request('it-run', { step: 'run.agentConfig', pick: 'Fake agent (no LLM)' }));
    assert.equal(report.status, 'done', `${report.message}; git status: ${status()}`);
    const result = report.payload;
    assert.ok(result && result.kind === 'receipt');
    const why = `${result.receipt.stop_reason}: ${result.receipt.reviewer.findings.join('; ')}; changed ${result.receipt.changed_files.join(', ')}; git status: ${status()}`;
    assert.equal(result.receipt.final_verdict, 'PASS', why);
    assert.equal(result.receipt.stop_reason, 'CODE_REVIEWER_PASS');
    const phases = api.runs.history.map((label) => label.replace(/ · .*$/, ''));
    for (const expected of [
      'explorer',
      'attempt 1/2: coder',
      'attempt 1/2: check 1/1',
      'attempt 1/2: code-reviewer',
    ])
      assert.ok(phases.includes(expected), `${expected} in ${phases.join(' | ')}`);
    const l = ledger('it-run');
    assert.equal(l.iterations.length, 1);
    assert.equal(l.iterations[0]?.outcome, 'complete');
    assert.equal(l.iterations[0]?.critic_verdict, 'PASS');
    await api.sessions.refreshAll();
    const node = await waitFor('the session in the tree', () => api.sessions.findSession(root, 'it-run'));
    const epochs = api.sessions.childrenOf(node);
    assert.equal(epochs.length, 1);
    const iterations = api.sessions.childrenOf(epochs[0]);
    assert.equal(iterations.length, 1, 'the attempt is an iteration under the run’s epoch');
  });

  it('opens the receipt: verdict badge, stop reason in words, checks, validator; the gate refuses other paths', async () => {
    const runs = join(root, '.loop', 'runs');
    const [runId] = execFileSync('ls', [runs], { encoding: 'utf8' }).trim().split('\n');
    const file = join(runs, runId as string, 'final-receipt.json');
    const report = (await vscode.commands.executeCommand(
      'loopLedger.openReceipt',
      vscode.Uri.file(file),
    )) as CommandReport<{
      verdict: string;
      html: string;
    }>;
    assert.equal(report.status, 'done', report.message);
    assert.equal(report.payload?.verdict, 'PASS');
    const html = report.payload?.html ?? '';
    assert.match(html, /id="verdict">PASS</);
    assert.match(html, /test -f docs\/loop-demo\.md/);
    assert.match(html, /LOOP RECEIPT VALID/);
    assert.match(html, /docs\/loop-demo\.md/);
    // From the session node: the newest receipt of that session's runs (found by run-ledger.json).
    const node = api.sessions.findSession(root, 'it-run');
    const bySession = (await vscode.commands.executeCommand(
      'loopLedger.openReceipt',
      node,
    )) as CommandReport<{
      verdict: string;
    }>;
    assert.equal(bySession.payload?.verdict, 'PASS', bySession.message);
    const model = { model: { openable: ['docs/loop-demo.md'] } } as never;
    assert.equal(
      await api.receipts.handle(root, file, model, { type: 'openFile', path: '/etc/passwd' }),
      false,
    );
    assert.equal(await api.receipts.handle(root, file, model, { type: 'run', command: 'rm -rf /' }), false);
    assert.equal(
      await api.receipts.handle(root, file, model, { type: 'openFile', path: 'docs/loop-demo.md' }),
      true,
    );
  });

  it('cancel mid-coder: the tree shows the phase, Cancel Run stops it, pause is recorded; Run Loop continues it', async () => {
    const slow = join(root, '.loop', 'slow-agents.toml');
    // Braces are doubled: the config's strings are templates ({node}, {{ }} for a literal brace).
    writeFileSync(slow, agentsToml('["{node}", "-e", "setTimeout(() => {{}}, 60000)"]'));
    rmSync(join(root, 'docs'), { recursive: true, force: true });
    commitAll();
    const pending = run(request('it-cancel', { step: 'run.agentConfig', pick: '.loop/slow-agents.toml' }));
    let early: CommandReport<RunOpResult> | undefined;
    void pending.then((r) => (early = r));
    const live = await waitFor(
      'the coder phase',
      () => {
        if (early) throw new Error(`the run ended before the coder: ${early.status} ${early.message ?? ''}`);
        const r = api.runs.get(root, 'it-cancel');
        return r?.progress?.phase.kind === 'coder' ? r : undefined;
      },
      30_000,
    );
    const node = await waitFor('the session node', () => api.sessions.findSession(root, 'it-cancel'), 10_000);
    const item = await waitFor(
      'the running label',
      () => {
        const i = api.sessions.getTreeItem(node);
        return String(i.description ?? '').startsWith('▶ attempt 1/2: coder') ? i : undefined;
      },
      10_000,
    );
    assert.match(String(item.contextValue), /\+running/);
    assert.equal(live.session, 'it-cancel');
    await vscode.commands.executeCommand('loopLedger.cancelRun', node);
    const cancelled = await pending;
    assert.equal(cancelled.status, 'cancelled', cancelled.message);
    const paused = ledger('it-cancel');
    assert.equal(paused.status, 'closed');
    assert.equal(paused.final_outcome, 'pause');
    const runDir = join(root, (cancelled.payload as { runDir: string }).runDir);
    assert.ok(existsSync(join(runDir, 'cancelled.json')));
    assert.equal(api.runs.get(root, 'it-cancel'), undefined);

    // The same config file, now a coder that finishes: Run Loop on the session continues the run.
    writeFileSync(slow, agentsToml(`["{node}", ${JSON.stringify(FAKE_AGENT())}]`));
    const resumed = await run([{ step: 'run.resume', confirm: true }], node);
    assert.equal(resumed.status, 'done', resumed.message);
    assert.ok(resumed.payload?.kind === 'receipt' && resumed.payload.receipt.final_verdict === 'PASS');
    assert.equal(
      (resumed.payload as { runDir: string }).runDir,
      (cancelled.payload as { runDir: string }).runDir,
    );
    const done = ledger('it-cancel');
    assert.equal(done.resumed, 1);
    assert.equal(done.final_outcome, 'complete');
  });

  it('refuses to run agents in an untrusted workspace', async () => {
    const untrusted = (await testingApi()).trust.simulateUntrusted();
    try {
      const report = await run([]);
      assert.equal(report.status, 'untrusted');
      assert.ok(!existsSync(join(root, '.loop', 'ledgers', 'it-untrusted.json')));
    } finally {
      untrusted.dispose();
    }
  });

  it('a refusal names the question Run Loop asked (“Agent config”), not the CLI flag, in sentences', async () => {
    writeFileSync(join(root, '.loop', 'broken-agents.toml'), '[coder\ncmd = oops\n');
    commitAll();
    const report = await run(
      request('it-broken-config', { step: 'run.agentConfig', pick: '.loop/broken-agents.toml' }),
    );
    assert.equal(report.status, 'refused', report.message);
    assert.equal(report.exitCode, 2);
    assert.match(
      report.message!,
      /^Loop Ledger: Run Loop refused \(exit 2\)\. “Agent config” \S*broken-agents\.toml/,
    );
    assert.doesNotMatch(report.message!, /--agent-config/);
    assert.match(report.message!, /\. Nothing was written\.$/);
    assert.ok(!existsSync(join(root, '.loop', 'ledgers', 'it-broken-config.json')), 'nothing was written');
  });
});
