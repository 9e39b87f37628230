// Workspace checkpoints from the Sessions tree, in a real VS Code: two iterations recorded with
// `iterate --checkpoint` by the CLI, compared in the diff editor over `loop-ledger-checkpoint:`
// documents, and the workspace restored through the modal (answered by the scripted prompter).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { CommandReport } from '../../src/extension/commands/deps';
import type { LoopLedgerApi } from '../../src/extension/extension';
import type { OverviewPanel } from '../../src/extension/overview/overviewPanel';
import type { EpochNode, IterationNode, SessionNode } from '../../src/extension/sessions/nodes';
import type { ToOverview } from '../../src/shared/overview-protocol';
import { ScriptedPrompter, type ScriptedAnswer } from '../hooks/scriptedPrompter';
import { assertGitUntouched } from './gitUntouched';
import { extensionPath, loopLedgerApi, testingApi, workspaceRoot } from './sessionsHelpers';

const SESSION = 'checkpoints-it';
const FILE = 'src/greet.js';
const ADDED = 'src/added.js';

const contract = {
  purpose: 'Exercise workspace checkpoints from the Sessions tree',
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

type IterationPost = Extract<ToOverview, { type: 'iteration' }>;
type RejectedPost = Extract<ToOverview, { type: 'rejected' }>;

/** Resolves with the first message the panel posts that `match` accepts. */
function nextPost<T extends ToOverview>(
  panel: OverviewPanel,
  match: (m: ToOverview) => m is T,
  what: string,
): Promise<T> {
  const seen: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`timed out waiting for ${what}; posted meanwhile: ${seen.join(', ') || 'nothing'}`));
    }, 60_000);
    const subscription = panel.onDidPost((m) => {
      seen.push(m.type === 'rejected' ? `rejected (${m.reason})` : m.type);
      if (!match(m)) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(m);
    });
  });
}
const isIteration = (m: ToOverview): m is IterationPost => m.type === 'iteration';
const isRejected = (m: ToOverview): m is RejectedPost => m.type === 'rejected';

describe('Workspace checkpoints in the Sessions tree', function () {
  this.timeout(120_000);
  const root = workspaceRoot();
  const original = readFileSync(join(root, FILE), 'utf8');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [join(extensionPath(), 'dist', 'cli.js'), ...args, '--root', root], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
  let api: LoopLedgerApi;

  const V1 = 'exports.greet = (name) => `Hi, ${name}`;\n';
  const V2 = 'exports.greet = (name) => `Hello, ${name}!`;\n';

  before(async () => {
    api = await loopLedgerApi();
    git('init', '--quiet');
    git('config', 'user.email', 'it@example.invalid');
    git('config', 'user.name', 'integration');
    mkdirSync(join(root, '.git', 'info'), { recursive: true });
    writeFileSync(join(root, '.git', 'info', 'exclude'), '.loop/\n');
    git('add', '-A');
    git('commit', '--quiet', '-m', 'initial');
    const contracts = join(root, '.loop', 'contracts');
    mkdirSync(contracts, { recursive: true });
    writeFileSync(join(contracts, `${SESSION}.json`), JSON.stringify(contract));
    cli('open', '--session', SESSION, '--contract', join(contracts, `${SESSION}.json`));
    writeFileSync(join(root, FILE), V1);
    await assertGitUntouched(root, () =>
      cli('iterate', '--session', SESSION, '--outcome', 'continue', '--checkpoint'),
    );
    writeFileSync(join(root, FILE), V2);
    await assertGitUntouched(root, () =>
      cli('iterate', '--session', SESSION, '--outcome', 'continue', '--checkpoint'),
    );
    await api.sessions.refreshAll();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    writeFileSync(join(root, FILE), original);
    for (const path of [
      '.git',
      ADDED,
      join('.loop', 'ledgers', `${SESSION}.json`),
      join('.loop', 'contracts', `${SESSION}.json`),
    ])
      rmSync(join(root, path), { recursive: true, force: true });
    await api.sessions.refreshAll();
  });

  function iterations(): IterationNode[] {
    const session = api.sessions
      .childrenOf()
      .find((n) => n.kind === 'session' && n.entry.session === SESSION) as SessionNode | undefined;
    assert.ok(session, `no session node ${SESSION}`);
    const epochs = api.sessions.childrenOf(session) as EpochNode[];
    return epochs.flatMap((e) => api.sessions.childrenOf(e) as IterationNode[]);
  }
  const iteration = (n: number) => {
    const node = iterations().find((i) => i.record.n === n);
    assert.ok(node, `no iteration ${n}`);
    return node;
  };

  /**
   * Runs a checkpoint command (Compare with Workspace and Restore take a checkpoint of the
   * workspace), asserting the user's git untouched; a restore that goes ahead writes the
   * working tree, so only then is the status left out.
   */
  async function run<P>(command: string, script: ScriptedAnswer[], arg: unknown) {
    const prompter = new ScriptedPrompter(script);
    const using = (await testingApi()).prompter.use(prompter);
    const restoring = script.some((answer) => 'confirm' in answer && answer.confirm === true);
    try {
      const report = await assertGitUntouched(
        root,
        async () => (await vscode.commands.executeCommand(command, arg)) as CommandReport<P>,
        { workingTreeWritten: restoring },
      );
      assert.deepEqual(prompter.remaining, [], 'unused scripted answers');
      return { report, prompter };
    } finally {
      using.dispose();
    }
  }

  async function activeDiff(): Promise<{
    original: vscode.Uri;
    modified: vscode.Uri;
    left: string;
    right: string;
  }> {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(input instanceof vscode.TabInputTextDiff, 'the active tab is a diff editor');
    const left = (await vscode.workspace.openTextDocument(input.original)).getText();
    const right = (await vscode.workspace.openTextDocument(input.modified)).getText();
    return { original: input.original, modified: input.modified, left, right };
  }

  it('flags iterations that carry a checkpoint in their contextValue', () => {
    for (const n of [1, 2]) {
      assert.match(String(api.sessions.getTreeItem(iteration(n)).contextValue), /^iteration\b.*\+checkpoint/);
    }
  });

  it('compares an iteration with the previous one in the diff editor over loop-ledger-checkpoint: documents', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const { report } = await run<{ files: string[] }>(
      'loopLedger.checkpoint.compareWithPrevious',
      [],
      iteration(2),
    );
    assert.equal(report.status, 'done', report.message);
    assert.deepEqual(report.payload?.files, [FILE]);
    const diff = await activeDiff();
    assert.equal(diff.original.scheme, 'loop-ledger-checkpoint');
    assert.equal(diff.modified.scheme, 'loop-ledger-checkpoint');
    assert.equal(diff.left, V1);
    assert.equal(diff.right, V2);
  });

  it('says so, and opens nothing, for the first iteration (no earlier checkpoint)', async () => {
    const { report } = await run('loopLedger.checkpoint.compareWithPrevious', [], iteration(1));
    assert.equal(report.status, 'nothing-to-do');
  });

  it('compares an iteration with the workspace: several files in the multi-file changes editor', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    writeFileSync(join(root, ADDED), 'exports.added = true;\n');
    const { report } = await run<{ files: string[] }>(
      'loopLedger.checkpoint.compareWithWorkspace',
      [],
      iteration(1),
    );
    assert.equal(report.status, 'done', report.message);
    // The untracked file counts: the checkpoint holds the whole workspace, not only tracked files.
    assert.deepEqual(report.payload?.files, [ADDED, FILE]);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    // The multi-file editor's label is the title the command gave, with VS Code's file count.
    assert.match(String(tab?.label), new RegExp(`^${SESSION}: iteration 1 ↔ workspace`));
  });

  it('refuses every checkpoint command in an untrusted workspace, and changes nothing', async () => {
    const untrusted = (await testingApi()).trust.simulateUntrusted();
    try {
      for (const command of [
        'loopLedger.checkpoint.compareWithPrevious',
        'loopLedger.checkpoint.compareWithWorkspace',
        'loopLedger.checkpoint.restore',
      ]) {
        const { report } = await run(command, [], iteration(2));
        assert.equal(report.status, 'untrusted', command);
      }
    } finally {
      untrusted.dispose();
    }
    assert.equal(readFileSync(join(root, FILE), 'utf8'), V2);
  });

  describe('from the session overview', () => {
    let overview: OverviewPanel | undefined;
    let ids = 0;
    const id = () => `cp-${++ids}`;

    /** The session's overview, opened again (and its handshake answered) when an editor close shut it. */
    async function page(): Promise<OverviewPanel> {
      const opened = (await vscode.commands.executeCommand('loopLedger.showSessionOverview', {
        root,
        session: SESSION,
      })) as OverviewPanel;
      if (opened !== overview) {
        overview = opened;
        assert.equal((await opened.receive({ type: 'ready', buckets: 100 })).accepted, true);
      }
      return opened;
    }
    after(() => overview?.dispose());

    async function shown(n: number): Promise<IterationPost> {
      const panel = await page();
      const answer = nextPost(panel, isIteration, `iteration ${n}`);
      assert.equal((await panel.receive({ type: 'showIteration', requestId: id(), n })).accepted, true);
      return answer;
    }

    it('offers the checkpoint actions on an iteration with a checkpoint; Compare with Previous opens the diff editor', async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      assert.equal((await shown(2)).checkpoint, true);
      const receipt = await assertGitUntouched(root, () =>
        overview!.receive({
          type: 'checkpoint',
          requestId: id(),
          n: 2,
          action: 'compareWithPrevious',
        }),
      );
      assert.deepEqual(receipt, { accepted: true, type: 'checkpoint' });
      const diff = await activeDiff();
      assert.equal(diff.original.scheme, 'loop-ledger-checkpoint');
      assert.equal(diff.left, V1);
      assert.equal(diff.right, V2);
    });

    it('Restore Workspace to This Iteration… shows the restore modal (declined: nothing changes)', async () => {
      // Iteration 2's files differ from the workspace whichever restore ran before.
      const before = readFileSync(join(root, FILE), 'utf8');
      const panel = await page();
      const posts: ToOverview[] = [];
      const listening = panel.onDidPost((m) => posts.push(m));
      const prompter = new ScriptedPrompter([{ step: 'checkpoint.restore', confirm: false }]);
      const using = (await testingApi()).prompter.use(prompter);
      try {
        const receipt = await assertGitUntouched(root, () =>
          panel.receive({ type: 'checkpoint', requestId: id(), n: 2, action: 'restore' }),
        );
        assert.deepEqual(receipt, { accepted: true, type: 'checkpoint' });
      } finally {
        using.dispose();
        listening.dispose();
      }
      assert.deepEqual(
        prompter.remaining,
        [],
        `the modal was not shown; the page got ${JSON.stringify(posts)}`,
      );
      assert.equal(prompter.asked[0]?.kind, 'confirm');
      assert.equal(readFileSync(join(root, FILE), 'utf8'), before);
    });

    it('refuses a message naming an iteration outside the ledger or an unknown action', async () => {
      const panel = await page();
      const outside = await panel.receive({
        type: 'checkpoint',
        requestId: id(),
        n: 99,
        action: 'restore',
      });
      assert.deepEqual(outside, { accepted: false, reason: 'unknown iteration: 99 is not in this ledger' });
      const unknown = await panel.receive({ type: 'checkpoint', requestId: id(), n: 1, action: 'reset' });
      assert.equal(unknown.accepted, false);
    });

    it('in an untrusted workspace offers none and runs none', async () => {
      const untrusted = (await testingApi()).trust.simulateUntrusted();
      try {
        assert.equal((await shown(2)).checkpoint, false);
        const panel = await page();
        const diffs = () =>
          vscode.window.tabGroups.all
            .flatMap((g) => g.tabs)
            .filter((t) => t.input instanceof vscode.TabInputTextDiff).length;
        const before = diffs();
        const rejected = nextPost(panel, isRejected, 'the refusal');
        await assertGitUntouched(root, () =>
          panel.receive({ type: 'checkpoint', requestId: id(), n: 2, action: 'compareWithPrevious' }),
        );
        assert.match((await rejected).reason, /untrusted/);
        assert.equal(diffs(), before, 'a diff editor was opened');
      } finally {
        untrusted.dispose();
      }
    });
  });

  it('restores nothing when the modal is declined', async () => {
    const { report, prompter } = await run(
      'loopLedger.checkpoint.restore',
      [{ step: 'checkpoint.restore', confirm: false }],
      iteration(1),
    );
    assert.equal(report.status, 'cancelled');
    assert.equal(prompter.asked[0]?.kind, 'confirm');
    assert.equal(readFileSync(join(root, FILE), 'utf8'), V2);
    assert.ok(existsSync(join(root, ADDED)));
  });

  it('restores the workspace to iteration 1 after the modal, and records a pause iteration', async () => {
    const { report } = await run<{ recorded: number; write: string[]; remove: string[] }>(
      'loopLedger.checkpoint.restore',
      [{ step: 'checkpoint.restore', confirm: true }],
      iteration(1),
    );
    assert.equal(report.status, 'done', report.message);
    assert.deepEqual(report.payload?.write, [FILE]);
    assert.deepEqual(report.payload?.remove, [ADDED]);
    assert.equal(readFileSync(join(root, FILE), 'utf8'), V1);
    assert.equal(existsSync(join(root, ADDED)), false);
    const ledger = JSON.parse(readFileSync(join(root, '.loop', 'ledgers', `${SESSION}.json`), 'utf8')) as {
      iterations: { n: number; outcome: string; checkpoint?: unknown }[];
    };
    const last = ledger.iterations.at(-1)!;
    assert.equal(last.n, 3);
    assert.equal(last.outcome, 'pause');
    assert.ok(last.checkpoint, 'the pause iteration carries the safety checkpoint');
    // The user's git is untouched: HEAD's commit and an empty index diff.
    assert.equal(git('diff', '--cached', '--name-only'), '');
  });
});
