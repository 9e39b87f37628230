// The Work Orders view inside a real VS Code: the tree over a fixture task (status, TERMINAL
// badge and HALT reason, attempts, dependencies, why one waits), clearing a HALT from the menu
// (asks first, keeps the marker), read-only when untrusted, and Run Queue over three work orders
// with the fake agents of test/fixtures/wo/.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LoopLedgerApi } from '../../src/extension/extension';
import { ScriptedPrompter, type ScriptedAnswer } from '../hooks/scriptedPrompter';
import type { WoNode } from '../../src/extension/workorders/treeProvider';
import type { QueueResult } from '../../src/extension/workorders/runQueue';
import type { QueueNotice } from '../../src/extension/workorders/queueOutcome';
import { extensionPath, loopLedgerApi, testingApi, workspaceRoot } from './sessionsHelpers';

function woFile(n: number, status: string, deps: number[] = []): string {
  const id = `wo-0${n}`;
  return [
    '---',
    `id: local:it#${id}`,
    `title: Part ${n}`,
    `status: ${status}`,
    `blocked_by: [${deps.map((d) => `local:it#wo-0${d}`).join(', ')}]`,
    'verified: true',
    'coverage_status: covered',
    'drift_guard: {symbols_resolved: true, acceptance_runnable: true}',
    'owner_note: kept  # unknown key',
    '---',
    '## Files to touch',
    `- \`src/${id}.txt\``,
    '',
  ].join('\n');
}

function makeTask(root: string, name: string): string {
  const dir = join(root, 'wo-it', name, 'work-orders');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'wo-01-first.md'), woFile(1, 'ready'));
  writeFileSync(join(dir, 'wo-02-second.md'), woFile(2, 'blocked', [1]));
  writeFileSync(join(dir, 'wo-03-third.md'), woFile(3, 'blocked', [2]));
  return join(root, 'wo-it', name);
}

/** A git repository with one commit: the worktree builds commit into. */
function gitRepo(path: string): string {
  mkdirSync(path, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: path, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'it@example.com');
  git('config', 'user.name', 'it');
  writeFileSync(join(path, 'README.md'), 'base\n');
  git('add', '-A');
  git('commit', '-qm', 'base');
  return path;
}

/**
 * A task for the default builder: work orders whose runnable acceptance passes once their file
 * says "done", and the task's own agents.toml (the fake harness agents of test/fixtures/wo/).
 */
function harnessTask(root: string, name: string, count: number): string {
  const task = join(root, 'wo-it', name);
  const dir = join(task, 'work-orders');
  mkdirSync(dir, { recursive: true });
  for (let n = 1; n <= count; n += 1) {
    const body = woFile(n, 'ready').replace(
      '## Files to touch',
      `## Goal\n- **Acceptance:** \`grep -qx done src/wo-0${n}.txt\`\n## Files to touch`,
    );
    writeFileSync(join(dir, `wo-0${n}-part.md`), body);
  }
  const fixtures = join(extensionPath(), 'test', 'fixtures', 'wo');
  for (const file of ['agents.toml', 'harness-agent.mjs', 'plan.mjs'])
    copyFileSync(join(fixtures, file), join(task, file));
  return task;
}

describe('Work Orders view and commands', function () {
  this.timeout(120_000);
  let api: LoopLedgerApi;
  let root: string;

  async function run<T>(command: string, script: ScriptedAnswer[], ...args: unknown[]): Promise<T> {
    const prompter = new ScriptedPrompter(script);
    const using = (await testingApi()).prompter.use(prompter);
    try {
      const result = (await vscode.commands.executeCommand(command, ...args)) as T;
      assert.deepEqual(prompter.remaining, [], 'unused scripted answers');
      return result;
    } finally {
      using.dispose();
    }
  }

  async function node(task: string, id?: string): Promise<WoNode> {
    api.workOrders.refresh();
    const tasks = await api.workOrders.getChildren();
    const t = tasks.find((n) => n.kind === 'task' && n.task.name === task);
    assert.ok(t, `task ${task} in the view`);
    if (!id) return t;
    const wo = (await api.workOrders.getChildren(t)).find((n) => n.kind === 'wo' && n.wo.id === id);
    assert.ok(wo, `${id} in the view`);
    return wo;
  }

  before(async () => {
    api = await loopLedgerApi();
    root = workspaceRoot();
  });
  after(async () => {
    rmSync(join(root, 'wo-it'), { recursive: true, force: true });
    const config = vscode.workspace.getConfiguration('loopLedger.workOrders');
    for (const key of ['builder', 'reviewer', 'critic', 'worktree'])
      await config.update(key, undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('shows tasks → work orders with status, TERMINAL badge and reason, attempts, dependencies and why one waits', async () => {
    const task = makeTask(root, 'view');
    const dir = join(task, 'work-orders');
    writeFileSync(
      join(dir, 'wo-01.run.json'),
      JSON.stringify({ wo: 'wo-01', attempts: 3, halted: true, halt_reason: 'retry_cap_exhausted' }),
    );
    writeFileSync(
      join(dir, 'wo-01.HALT'),
      JSON.stringify({ wo_id: 'wo-01', reason: 'retry_cap_exhausted', at: '2026-01-01T00:00:00Z' }),
    );
    const taskNode = await node('view');
    const taskItem = api.workOrders.getTreeItem(taskNode);
    assert.equal(taskItem.description, '0/3 done · 1 TERMINAL');
    const wo1 = api.workOrders.getTreeItem(await node('view', 'wo-01'));
    assert.match(String(wo1.description), /^TERMINAL: retry_cap_exhausted · 3\/3/);
    assert.match(String(wo1.contextValue), /\+terminal/);
    const wo2Node = await node('view', 'wo-02');
    const wo2 = api.workOrders.getTreeItem(wo2Node);
    assert.match(String(wo2.description), /^blocked · 0\/3 · waiting on a dependency/);
    assert.match(String(wo2.contextValue), /\+settable/);
    const children = await api.workOrders.getChildren(wo2Node);
    assert.deepEqual(
      children.map((c) => api.workOrders.getTreeItem(c).label),
      [
        'depends on wo-01',
        'waits for wo-01, which is TERMINAL (retry_cap_exhausted): nothing runs until a person clears wo-01',
      ],
    );
    // The dependency row says TERMINAL, never the "ready" its status line still holds.
    assert.equal(
      api.workOrders.getTreeItem(children[0] as (typeof children)[number]).description,
      'TERMINAL (retry_cap_exhausted): blocks this work order until cleared',
    );
  });

  it('the view follows the files: a HALT written by the CLI appears without a manual refresh', async () => {
    const task = makeTask(root, 'live');
    await node('live');
    execFileSync(
      process.execPath,
      [
        join(extensionPath(), 'dist', 'cli.js'),
        'wo',
        'halt',
        join(task, 'work-orders'),
        'wo-03',
        '--reason',
        'manual_stop',
      ],
      {
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        stdio: 'pipe',
      },
    );
    // No refresh from the test: the view's file watcher must notice the CLI's write.
    let terminal = false;
    for (let i = 0; i < 200 && !terminal; i += 1) {
      const tasks = await api.workOrders.load();
      terminal =
        tasks.find((t) => t.name === 'live')?.workOrders.find((w) => w.id === 'wo-03')?.row.terminal === true;
      if (!terminal) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(terminal, 'the HALT appeared in the view within 10 s');
  });

  it('Clear HALT asks first: declining changes nothing; confirming keeps the marker as a cleared copy', async () => {
    const task = makeTask(root, 'clear');
    const dir = join(task, 'work-orders');
    writeFileSync(
      join(dir, 'wo-01.run.json'),
      JSON.stringify({ wo: 'wo-01', attempts: 1, halted: true, halt_reason: 'critique_critical' }),
    );
    writeFileSync(
      join(dir, 'wo-01.HALT'),
      JSON.stringify({ wo_id: 'wo-01', reason: 'critique_critical', at: 'x' }),
    );
    const declined = await run<string | undefined>(
      'loopLedger.wo.clearHalt',
      [{ step: 'wo.clearHalt', confirm: false }],
      await node('clear', 'wo-01'),
    );
    assert.equal(declined, undefined);
    assert.ok(existsSync(join(dir, 'wo-01.HALT')));
    const kept = await run<string>(
      'loopLedger.wo.clearHalt',
      [{ step: 'wo.clearHalt', confirm: true }],
      await node('clear', 'wo-01'),
    );
    assert.ok(kept.startsWith(join(dir, 'wo-01.HALT.cleared-')));
    assert.equal(existsSync(join(dir, 'wo-01.HALT')), false);
    assert.deepEqual(readdirSync(dir).filter((n) => n.startsWith('wo-01.HALT')).length, 1);
    assert.equal(JSON.parse(readFileSync(join(dir, 'wo-01.run.json'), 'utf8')).halted, false);
    const item = api.workOrders.getTreeItem(await node('clear', 'wo-01'));
    assert.doesNotMatch(String(item.contextValue), /\+terminal/);
  });

  it('Set Status offers only legal transitions and keeps unknown keys; untrusted is read-only', async () => {
    const task = makeTask(root, 'status');
    const file = join(task, 'work-orders', 'wo-01-first.md');
    const prompter = new ScriptedPrompter([{ step: 'wo.status', pick: 'in_progress' }]);
    const using = (await testingApi()).prompter.use(prompter);
    try {
      assert.equal(
        await vscode.commands.executeCommand('loopLedger.wo.setStatus', await node('status', 'wo-01')),
        'in_progress',
      );
    } finally {
      using.dispose();
    }
    assert.deepEqual(
      prompter.asked[0]?.items?.map((i) => i.label),
      ['in_progress'],
    );
    assert.equal(
      readFileSync(file, 'utf8'),
      woFile(1, 'ready').replace('status: ready', 'status: in_progress'),
    );
    const untrusted = (await testingApi()).trust.simulateUntrusted();
    try {
      assert.equal(
        await vscode.commands.executeCommand('loopLedger.wo.toggleKill', await node('status')),
        undefined,
      );
      assert.equal(existsSync(join(task, '.kill')), false);
    } finally {
      untrusted.dispose();
    }
  });

  it('Create a Work Order writes the next file; in an untrusted workspace it asks nothing and writes nothing', async () => {
    const task = join(root, 'wo-it', 'created');
    const script = (): ScriptedAnswer[] => [
      { step: 'wo.create.task', text: 'wo-it/created' },
      { step: 'wo.create.title', text: 'First thing' },
    ];
    const refusedPrompter = new ScriptedPrompter(script());
    const untrusted = (await testingApi()).trust.simulateUntrusted();
    const refusing = (await testingApi()).prompter.use(refusedPrompter);
    try {
      assert.equal(await vscode.commands.executeCommand('loopLedger.wo.create'), undefined);
    } finally {
      refusing.dispose();
      untrusted.dispose();
    }
    assert.equal(refusedPrompter.asked.length, 0, 'nothing asked in an untrusted workspace');
    assert.equal(existsSync(task), false, 'nothing written in an untrusted workspace');

    const using = (await testingApi()).prompter.use(new ScriptedPrompter(script()));
    try {
      const path = await vscode.commands.executeCommand<string>('loopLedger.wo.create');
      assert.equal(path, join(task, 'work-orders', 'wo-01-first-thing.md'));
      assert.ok(existsSync(path));
    } finally {
      using.dispose();
    }
  });

  it('Run Queue runs three dependent work orders with fake agents to done', async () => {
    const task = makeTask(root, 'queue');
    const code = join(root, 'wo-it', 'code');
    mkdirSync(code, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: code, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'it@example.com');
    git('config', 'user.name', 'it');
    writeFileSync(join(code, 'README.md'), 'base\n');
    git('add', '-A');
    git('commit', '-qm', 'base');
    const agent = (name: string) =>
      `"${process.execPath}" "${join(extensionPath(), 'test', 'fixtures', 'wo', `${name}.mjs`)}"`;
    const config = vscode.workspace.getConfiguration('loopLedger.workOrders');
    await config.update(
      'builder',
      `ELECTRON_RUN_AS_NODE=1 ${agent('builder')}`,
      vscode.ConfigurationTarget.Workspace,
    );
    await config.update(
      'reviewer',
      `ELECTRON_RUN_AS_NODE=1 ${agent('reviewer')}`,
      vscode.ConfigurationTarget.Workspace,
    );
    await config.update(
      'critic',
      `ELECTRON_RUN_AS_NODE=1 ${agent('critic')}`,
      vscode.ConfigurationTarget.Workspace,
    );
    await config.update('worktree', code, vscode.ConfigurationTarget.Workspace);
    // The settings' commands are taken as they are: only the choices are asked.
    const result = await run<QueueResult>(
      'loopLedger.wo.runQueue',
      [
        { step: 'wo.builderChoice', pick: 'Custom builder and reviewer commands…' },
        { step: 'wo.mode', pick: 'Sequential' },
      ],
      await node('queue'),
    );
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.summary?.outcome, 'complete');
    const tasks = await api.workOrders.load();
    assert.deepEqual(
      tasks.find((t) => t.name === 'queue')?.workOrders.map((w) => [w.id, w.row.status, w.attempts]),
      [
        ['wo-01', 'done', 1],
        ['wo-02', 'done', 1],
        ['wo-03', 'done', 1],
      ],
    );
    assert.ok(existsSync(join(task, 'work-orders', 'loop-obs.ndjson')));
  });
  it("Run Queue offers the task's agents.toml first; the default builder ends with every gate answered", async () => {
    const task = harnessTask(root, 'harness', 1);
    const code = gitRepo(join(root, 'wo-it', 'code-harness'));
    const config = vscode.workspace.getConfiguration('loopLedger.workOrders');
    const critic = `"${process.execPath}" "${join(extensionPath(), 'test', 'fixtures', 'wo', 'critic.mjs')}"`;
    await config.update('critic', `ELECTRON_RUN_AS_NODE=1 ${critic}`, vscode.ConfigurationTarget.Workspace);
    await config.update('worktree', code, vscode.ConfigurationTarget.Workspace);
    const prompter = new ScriptedPrompter([
      { step: 'wo.builderChoice', pick: "The task's agents.toml" },
      { step: 'wo.mode', pick: 'Sequential' },
    ]);
    const using = (await testingApi()).prompter.use(prompter);
    let result: QueueResult & { notice: QueueNotice };
    try {
      result = (await vscode.commands.executeCommand(
        'loopLedger.wo.runQueue',
        await node('harness'),
      )) as typeof result;
    } finally {
      using.dispose();
    }
    assert.deepEqual(prompter.remaining, []);
    // The default is offered first (Enter takes it), the custom commands last.
    const offered = prompter.asked[0]?.items?.map((i) => i.label) ?? [];
    assert.equal(offered[0], "The task's agents.toml");
    assert.equal(offered[offered.length - 1], 'Custom builder and reviewer commands…');
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.summary?.outcome, 'complete');
    // Built by the loop-ledger run harness: its build record says so.
    const build = JSON.parse(readFileSync(join(task, 'work-orders', 'wo-01.build.json'), 'utf8'));
    assert.equal(build.builder, 'loop-ledger run');
    assert.equal(build.final_verdict, 'PASS');
    assert.equal(result.notice.severity, 'info');
    assert.deepEqual(result.notice.lines, [
      'task review: pass',
      'ship gate: ship (shippable)',
      'merge gate: merge (merge_ok); auto-merge allowed',
      'mode gate (open a PR): not allowed (run_mode_unreadable)',
    ]);
    assert.match(
      result.notice.message,
      /^Loop Ledger: harness: complete, 1\/1 done; the gates allow the branch\./,
    );
  });

  it('Run Queue in parallel rounds (max 2) passes --parallel --max; a refused gate is a warning naming it', async () => {
    harnessTask(root, 'rounds', 2);
    const code = gitRepo(join(root, 'wo-it', 'code-rounds'));
    const config = vscode.workspace.getConfiguration('loopLedger.workOrders');
    await config.update('critic', undefined, vscode.ConfigurationTarget.Workspace);
    await config.update('worktree', code, vscode.ConfigurationTarget.Workspace);
    const result = await run<QueueResult & { notice: QueueNotice }>(
      'loopLedger.wo.runQueue',
      [
        // Another config file, typed relative to the workspace folder (here: the task's own copy).
        { step: 'wo.builderChoice', pick: 'Another agent config file…' },
        { step: 'wo.builderConfig', text: 'wo-it/rounds/agents.toml' },
        { step: 'wo.mode', pick: 'Parallel' },
        { step: 'wo.max', text: '2' },
      ],
      await node('rounds'),
    );
    assert.equal(
      JSON.parse(readFileSync(join(root, 'wo-it', 'rounds', 'work-orders', 'wo-02.build.json'), 'utf8'))
        .builder,
      'loop-ledger run',
    );
    // Both work orders in one round: each in its own worktree, merged back.
    assert.match(result.stderr, /^wo-parallel-batch ready=2 batch=2 deferred=0 max=2$/m);
    assert.match(result.stderr, /^wo-merge-back branch=wo-02\S* merged=true/m);
    assert.deepEqual(
      result.summary?.work_orders.map((w) => [w.wo_id, w.status]),
      [
        ['wo-01', 'done'],
        ['wo-02', 'done'],
      ],
    );
    // No critic: nothing critiqued, so the ship gate refuses, and the run says which gate.
    assert.equal(result.exitCode, 1, result.stderr);
    assert.equal(result.summary?.outcome, 'gates_refused');
    assert.equal(result.notice.severity, 'warning');
    assert.match(
      result.notice.message,
      /^Loop Ledger: rounds: gates refused \(2\/2 done\): ship gate: refused \(/,
    );
    assert.match(result.notice.message, /merge gate: refused \(ship_not_ok:/);
  });

  it('Run Queue: a config file that does not exist stops before anything runs; Back re-asks the builder', async () => {
    harnessTask(root, 'missing', 1);
    const result = await run(
      'loopLedger.wo.runQueue',
      [
        { step: 'wo.builderChoice', pick: 'Another agent config file…' },
        { step: 'wo.builderConfig', back: true },
        { step: 'wo.builderChoice', pick: 'Another agent config file…' },
        { step: 'wo.builderConfig', text: 'wo-it/missing/nothing.toml' },
      ],
      await node('missing'),
    );
    assert.equal(result, undefined);
    assert.equal(existsSync(join(root, 'wo-it', 'missing', 'work-orders', 'wo-01.run.json')), false);
  });

  it('Run Queue refuses in an untrusted workspace before asking anything', async () => {
    harnessTask(root, 'untrusted', 1);
    const untrusted = (await testingApi()).trust.simulateUntrusted();
    try {
      // An empty script: any question would throw.
      assert.equal(await run('loopLedger.wo.runQueue', [], await node('untrusted')), undefined);
    } finally {
      untrusted.dispose();
    }
    assert.equal(existsSync(join(root, 'wo-it', 'untrusted', 'work-orders', 'wo-01.run.json')), false);
  });
});
