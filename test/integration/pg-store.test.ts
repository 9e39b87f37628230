// The extension on a PostgreSQL ledger store, in a real VS Code against a throwaway cluster the
// suite starts: the setting refused with a password in it and ignored in an untrusted workspace;
// the password set through the command (secret storage) for a least-privilege role that needs it;
// the Sessions tree read from the store and following a CLI process's writes through LISTEN; the
// extension's own write going to the store; the language-model tools reading and writing the
// store (a brief assembled and a verdict bound to it); Run Loop, Repeat Until Settled, Open Loop
// (loop-engineering), Run Queue and the checkpoint commands (from the tree and the overview)
// working on the store; agent mode's MCP server given the password as it starts; the overview and
// dashboard following a CLI write; and the server stopped (shown disconnected) and started again
// (reconnected, caught up).
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Client } from 'pg';
import * as vscode from 'vscode';
import type { AssembleResult } from '../../src/extension/brief/assembleBrief';
import type { RunOpResult } from '../../src/app/run/operation';
import type { CommandReport } from '../../src/extension/commands/deps';
import type { DashboardPanel } from '../../src/extension/overview/dashboardPanel';
import type { OverviewPanel } from '../../src/extension/overview/overviewPanel';
import type { RepeatCommandReport } from '../../src/extension/repeat/runInWindow';
import type { EpochNode, IterationNode } from '../../src/extension/sessions/nodes';
import type { QueueResult } from '../../src/extension/workorders/runQueue';
import type { ToOverview } from '../../src/shared/overview-protocol';
import type { ToWebview } from '../../src/shared/protocol';
import type { LoopLedgerApi } from '../../src/extension/extension';
import { ScriptedPrompter, type ScriptedAnswer } from '../hooks/scriptedPrompter';
import type { TestingApi } from '../hooks/testHooks';
import { startCluster, type PgCluster } from '../unit/helpers/pg-cluster';
import { talk } from './mcpTalk';
import { extensionPath, loopLedgerApi, testingApi, waitFor, workspaceRoot } from './sessionsHelpers';

const ROLE = 'loop_ledger_agent';
const PASSWORD = "it's-a-s3cret\\pw";

/** Resolves with the first message the panel posts that `match` accepts. */
function nextPost<T extends ToOverview>(
  panel: { onDidPost: vscode.Event<ToOverview> },
  match: (m: ToOverview) => m is T,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    const subscription = panel.onDidPost((m) => {
      if (!match(m)) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(m);
    });
  });
}

const isModel =
  (iterations: number) =>
  (m: ToOverview): m is Extract<ToOverview, { type: 'overview' }> =>
    m.type === 'overview' && m.model.iterations === iterations;

/** The dashboard's rows once they list session store-live at `n` iterations. */
const dashboardWith =
  (n: number) =>
  (m: ToOverview): m is Extract<ToOverview, { type: 'dashboard' }> =>
    m.type === 'dashboard' && m.rows.some((r) => r.session === 'store-live' && r.n === n);

describe('Ledger store (PostgreSQL): the Sessions tree follows the store live', function () {
  this.timeout(180_000);
  let api: LoopLedgerApi;
  let testing: TestingApi;
  let cluster: PgCluster;
  let root: string;
  let project: string;
  /** The agent role's URL, without its password (what a person puts in the setting). */
  let agentUrl: string;

  const config = () => vscode.workspace.getConfiguration();
  const setStore = async (url: string | undefined) => {
    await config().update('loopLedger.store', url, vscode.ConfigurationTarget.Workspace);
    // The change event runs the store's reapply; wait for it to have been applied.
    await new Promise((r) => setTimeout(r, 50));
    await api.store.storeSettled();
  };
  const sql = async (text: string, params: unknown[] = []) => {
    const client = new Client(cluster.url);
    await client.connect();
    try {
      return await client.query(text, params);
    } finally {
      await client.end();
    }
  };
  /** The CLI as a child process (asynchronously: the extension host keeps running meanwhile). */
  const cli = (...args: string[]): Promise<{ code: number | null; stderr: string }> =>
    new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        [
          join(extensionPath(), 'dist', 'cli.js'),
          ...args,
          '--root',
          root,
          '--store',
          cluster.url,
          '--project',
          project,
        ],
        { env: { ...process.env, LOOP_LEDGER_STORE_RETRY_MS: '3000', ELECTRON_RUN_AS_NODE: '1' } },
      );
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code, stderr }));
    });
  const iterations = (session: string): number | undefined => {
    const node = api.sessions.findSession(root, session);
    return node?.entry.kind === 'ledger' ? node.entry.ledger.iterations.length : undefined;
  };
  const state = () => api.store.storeStatus.current;

  before(async () => {
    api = await loopLedgerApi();
    testing = await testingApi();
    root = workspaceRoot();
    project = basename(root);
    cluster = await startCluster();
    const contract = join(extensionPath(), 'test', 'fixtures', 'contracts', 'valid.loop-contract.json');
    for (const args of [
      ['store', 'migrate'],
      ['open', '--session', 's1', '--contract', contract],
    ]) {
      const r = await cli(...args);
      assert.equal(r.code, 0, r.stderr);
    }
    // The least-privilege role docs/postgres.md documents, which must give a password.
    await sql(`CREATE ROLE ${ROLE} LOGIN PASSWORD '${PASSWORD.replace(/'/g, "''")}'`);
    await sql(`GRANT SELECT ON loop_ledger_schema TO ${ROLE}`);
    await sql(
      `GRANT SELECT, INSERT, UPDATE, DELETE ON loop_ledger_sessions, loop_ledger_epochs,
         loop_ledger_iterations, loop_ledger_actions, loop_ledger_requests, loop_ledger_briefs TO ${ROLE}`,
    );
    const hba = (await sql('SHOW hba_file')).rows[0].hba_file as string;
    writeFileSync(
      hba,
      'local all all trust\nhost all postgres 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 scram-sha-256\n',
    );
    await sql('SELECT pg_reload_conf()');
    agentUrl = `postgres://${ROLE}@127.0.0.1:${cluster.port}/postgres`;
    assert.ok(readFileSync(hba, 'utf8').includes('scram'));
  });

  after(async () => {
    await setStore(undefined);
    await vscode.commands.executeCommand('loopLedger.setStorePassword', '');
    cluster?.destroy();
  });

  it('refuses a URL with a password in the settings, and never shows it', async () => {
    await setStore(`postgres://${ROLE}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${cluster.port}/postgres`);
    assert.equal(state().state, 'off');
    assert.match(state().text, /holds a password.*Set Store Password/);
    assert.ok(!state().text.includes('s3cret'));
    assert.equal(iterations('s1'), undefined, 'the store is not read');
    assert.equal(api.store.inUse, undefined, 'the files are used');
  });

  it('an untrusted workspace connects to no store and says why', async () => {
    const untrusted = testing.trust.simulateUntrusted();
    try {
      await setStore(agentUrl);
      assert.equal(state().state, 'off');
      assert.match(state().text, /not trusted/);
      assert.equal(iterations('s1'), undefined);
      assert.equal(api.store.inUse, undefined, 'the files are used');
    } finally {
      untrusted.dispose();
      await setStore(undefined);
    }
  });

  it('with the password from Set Store Password, reads the store and shows a CLI write within seconds', async () => {
    await vscode.commands.executeCommand('loopLedger.setStorePassword', '');
    await setStore(agentUrl);
    // No password yet: the server refuses the role, and the state says so (not the password).
    await waitFor('disconnected without a password', () => state().state === 'disconnected', 10_000);
    assert.ok(!state().text.includes('s3cret'), state().text);
    assert.equal(await vscode.commands.executeCommand('loopLedger.setStorePassword', PASSWORD), 'stored');
    await waitFor('connected', () => state().state === 'connected', 15_000);
    await waitFor('s1 read from the store', () => iterations('s1') === 0, 5_000);
    const node = api.sessions.findSession(root, 's1');
    assert.match(node!.entry.path, /^postgres:\/\/127\.0\.0\.1:\d+\/postgres#/);
    assert.equal(existsSync(join(root, '.loop', 'ledgers', 's1.json')), false);

    const written = await cli('iterate', '--session', 's1', '--outcome', 'continue', '--action', 'cli-1');
    assert.equal(written.code, 0, written.stderr);
    const shown = Date.now();
    await waitFor('the CLI write in the tree', () => iterations('s1') === 1, 5_000);
    console.log(`    tree showed the CLI's write ${Date.now() - shown} ms after the CLI exited`);
  });

  it("the extension's Record Iteration writes to the store", async () => {
    const prompter = new ScriptedPrompter([
      { step: 'record.outcome', pick: 'continue' },
      { step: 'record.actions', text: 'ext-1' },
      { step: 'record.measure', pick: 'No measurements' },
      { step: 'record.details', pickMany: [] },
    ]);
    const using = testing.prompter.use(prompter);
    let report: CommandReport;
    try {
      report = (await vscode.commands.executeCommand('loopLedger.recordIteration', {
        root,
        session: 's1',
      })) as CommandReport;
    } finally {
      using.dispose();
    }
    assert.equal(report.status, 'done', report.message);
    // The CLI line that does the same names the store (without a password) and the project.
    assert.ok(report.cli?.endsWith(` --store ${agentUrl} --project ${project}`), report.cli);
    const rows = await sql(
      'SELECT count(*)::int AS n FROM loop_ledger_iterations WHERE project = $1 AND session = $2',
      [project, 's1'],
    );
    assert.equal(rows.rows[0].n, 2);
    assert.equal(iterations('s1'), 2);
    assert.equal(existsSync(join(root, '.loop', 'ledgers', 's1.json')), false, 'no file written');
  });

  it('the language-model tools assemble a brief and record its verdict in the store', async () => {
    const invoke = async (name: string, input: Record<string, unknown>) => {
      const result = await vscode.lm.invokeTool(
        name,
        { input, toolInvocationToken: undefined },
        new vscode.CancellationTokenSource().token,
      );
      return (result.content[0] as vscode.LanguageModelTextPart).value;
    };
    writeFileSync(
      join(root, 'lm-change.diff'),
      'diff --git a/src/x.ts b/src/x.ts\n--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-a\n+b\n',
    );
    const briefText = await invoke('loopLedger_assembleBrief', {
      session: 's1',
      diff_file: 'lm-change.diff',
      verification: 'tests: 1 passed',
    });
    const brief = JSON.parse(briefText) as { brief_id: string; files: string[] };
    assert.deepEqual(brief.files, ['src/x.ts'], briefText);
    const kept = await sql('SELECT brief_id FROM loop_ledger_briefs WHERE project = $1 AND session = $2', [
      project,
      's1',
    ]);
    assert.deepEqual(
      kept.rows.map((r) => r.brief_id),
      [brief.brief_id],
      'the packet is kept in the store',
    );
    const verdictText = await invoke('loopLedger_recordIteration', {
      session: 's1',
      outcome: 'continue',
      critic_verdict: 'REVISE',
      critic_next: 'cover the edge',
      critic_brief: brief.brief_id,
      evidence_paths: ['ci.log'],
      actions: ['lm-1'],
    });
    assert.equal(JSON.parse(verdictText).critic_brief, brief.brief_id, verdictText);
    const statusText = await invoke('loopLedger_sessionStatus', { session: 's1' });
    assert.equal(JSON.parse(statusText).critic_verdict, 'REVISE', statusText);
    assert.equal(JSON.parse(statusText).iterations, 3, statusText);
    await waitFor('the tool write in the tree', () => iterations('s1') === 3, 5_000);
    assert.equal(existsSync(join(root, '.loop', 'ledgers', 's1.json')), false, 'no file written');
  });

  it("Assemble Critic Brief (the folder's git) and the panel's Record Verdict write to the store", async () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: root,
        encoding: 'utf8',
      });
    const file = join(root, 'pg-brief.txt');
    git('init', '--quiet');
    try {
      writeFileSync(file, 'one\n');
      git('add', 'pg-brief.txt');
      git('commit', '--quiet', '-m', 'one');
      writeFileSync(file, 'two\n');
      writeFileSync(join(root, 'pg-verify.txt'), '1 passing\n');
      // The session is picked from the store's list (s1 has no ledger file).
      const script = new ScriptedPrompter([
        { step: 'brief.session', pick: 's1' },
        { step: 'brief.change', pick: 'Working tree vs HEAD' },
        { step: 'brief.verificationSource', pick: 'From a file…' },
        { step: 'brief.verificationFile', text: 'pg-verify.txt' },
      ]);
      const using = testing.prompter.use(script);
      let result: AssembleResult;
      try {
        result = (await vscode.commands.executeCommand('loopLedger.assembleBrief')) as AssembleResult;
      } finally {
        using.dispose();
      }
      assert.equal(result.status, 'shown', JSON.stringify(result));
      if (result.status !== 'shown') return;
      const panel = result.panel;
      try {
        const id = panel.briefId;
        const pending = await sql(
          'SELECT head FROM loop_ledger_sessions WHERE project = $1 AND session = $2',
          [project, 's1'],
        );
        assert.equal(JSON.parse(pending.rows[0].head).pending_brief.brief_id, id, 'armed in the store');
        assert.deepEqual(await panel.receive({ type: 'ready' }), { accepted: true, type: 'ready' });
        const posted: ToWebview[] = [];
        const listening = panel.onDidPost((m) => posted.push(m));
        const verdict = await panel.receive({
          type: 'submitVerdict',
          requestId: 'pg-v1',
          briefId: id,
          form: {
            verdict: 'REVISE',
            criticNext: 'cover the edge',
            evidencePaths: ['pg-verify.txt'],
            decision: null,
            outcome: 'continue',
            actions: [],
            measurements: [],
            note: null,
            blocker: null,
            evidence: null,
            recommendedNext: null,
          },
        });
        listening.dispose();
        assert.equal(verdict.accepted, true, JSON.stringify(verdict));
        const reply = posted.find((m) => m.type === 'verdictResult');
        assert.equal(reply?.type === 'verdictResult' ? reply.exitCode : undefined, 0, JSON.stringify(posted));
        const rows = await sql(
          `SELECT record FROM loop_ledger_iterations WHERE project = $1 AND session = $2 ORDER BY n DESC LIMIT 1`,
          [project, 's1'],
        );
        const record = JSON.parse(rows.rows[0].record);
        assert.deepEqual([record.critic_verdict, record.critic_brief], ['REVISE', id]);
        await waitFor('the verdict in the tree', () => iterations('s1') === 4, 5_000);
      } finally {
        panel.dispose();
      }
    } finally {
      for (const path of ['.git', 'pg-brief.txt', 'pg-verify.txt', 'lm-change.diff'])
        rmSync(join(root, path), { recursive: true, force: true });
    }
  });

  /** Runs `command` with `script` answering its questions; every scripted answer must be used. */
  const scripted = async <T>(script: ScriptedAnswer[], command: string, ...args: unknown[]): Promise<T> => {
    const prompter = new ScriptedPrompter(script);
    const using = testing.prompter.use(prompter);
    try {
      const result = (await vscode.commands.executeCommand(command, ...args)) as T;
      assert.deepEqual(prompter.remaining, [], 'unused scripted answers');
      return result;
    } finally {
      using.dispose();
    }
  };
  const storedRecords = async (session: string) =>
    (
      await sql('SELECT record FROM loop_ledger_iterations WHERE project = $1 AND session = $2 ORDER BY n', [
        project,
        session,
      ])
    ).rows.map((r) => JSON.parse(r.record));
  const noLedgerFile = (session: string) =>
    assert.equal(existsSync(join(root, '.loop', 'ledgers', `${session}.json`)), false, 'no ledger file');
  const contractFixture = () =>
    join(extensionPath(), 'test', 'fixtures', 'contracts', 'valid.loop-contract.json');

  it('Repeat Until Settled repeats on the store, and Resume continues its paused repeat there', async () => {
    const opened = await cli('open', '--session', 'store-rep', '--contract', contractFixture());
    assert.equal(opened.code, 0, opened.stderr);
    const outside = mkdtempSync(join(tmpdir(), 'loop-ledger-pg-repeat-'));
    const plan = join(outside, 'plan.json');
    const stuck = { summary: 'Recommend extracting a shared validator; verification failed' };
    writeFileSync(
      plan,
      JSON.stringify([
        stuck,
        stuck,
        stuck,
        { summary: 'Applied 1 recommendation', files: { 'repeat-demo/a.txt': 'one' } },
        { summary: 'Analysis complete. No recommendations.' },
      ]),
    );
    // The step runs in the extension host's environment: this process.
    process.env.REPEAT_PLAN = plan;
    const step = join(extensionPath(), 'test', 'fixtures', 'repeat', 'step.mjs');
    try {
      // Three stalls pause it; the question dismissed, the repeat stays paused (in the store).
      const paused = await scripted<RepeatCommandReport>(
        [
          { step: 'repeat.spec', text: `"${process.execPath}" "${step}" max=8` },
          { step: 'repeat.answer', cancel: true },
        ],
        'loopLedger.repeatUntilSettled',
        { root, session: 'store-rep' },
      );
      assert.equal(paused.status, 'paused', paused.message);
      const head = async () =>
        JSON.parse(
          (
            await sql('SELECT head FROM loop_ledger_sessions WHERE project = $1 AND session = $2', [
              project,
              'store-rep',
            ])
          ).rows[0].head,
        );
      assert.equal((await head()).final_outcome, 'pause');
      await waitFor('the pause in the tree', () => iterations('store-rep') === 3, 5_000);
      // Resume reads the store, sees the unfinished repeat and continues it (not a plain resume).
      const resumed = await scripted<RepeatCommandReport>(
        [
          { step: 'resume.session', pick: 'store-rep' },
          { step: 'repeat.answer', pick: 'skip' },
        ],
        'loopLedger.resume',
      );
      assert.equal(resumed.status, 'done', resumed.message);
      assert.equal(resumed.exitCode, 0);
      assert.match(resumed.message, /Settled after 5 iteration/);
      const records = await storedRecords('store-rep');
      assert.deepEqual(
        records.map((r) => r.repeat?.classification),
        ['stalled', 'stalled', 'stalled', 'continuing', 'settled'],
      );
      assert.equal((await head()).final_outcome, 'complete');
      noLedgerFile('store-rep');
      assert.ok(existsSync(join(root, '.loop', 'repeat', 'store-rep.md')), 'the summary is local');
      await waitFor('the repeat in the tree', () => iterations('store-rep') === 5, 5_000);
    } finally {
      delete process.env.REPEAT_PLAN;
      rmSync(outside, { recursive: true, force: true });
      for (const path of ['repeat-demo', join('.loop', 'repeat')])
        rmSync(join(root, path), { recursive: true, force: true });
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('Open Loop (loop-engineering) opens the loop in the store', async () => {
    const contract = join(root, 'pg-store.loop.md');
    copyFileSync(join(extensionPath(), 'test', 'fixtures', 'engineering', 'valid.loop.md'), contract);
    try {
      const report = await scripted<CommandReport>(
        [{ step: 'openEngineering.session', text: 'store-eng' }],
        'loopLedger.openEngineeringLoop',
        vscode.Uri.file(contract),
      );
      assert.equal(report.status, 'done', report.message);
      assert.ok(report.cli?.endsWith(` --store ${agentUrl} --project ${project}`), report.cli);
      const head = await sql('SELECT head FROM loop_ledger_sessions WHERE project = $1 AND session = $2', [
        project,
        'store-eng',
      ]);
      assert.equal(JSON.parse(head.rows[0].head).engineering.caps.calls, 18);
      noLedgerFile('store-eng');
      await waitFor('the loop in the tree', () => iterations('store-eng') === 0, 5_000);
    } finally {
      rmSync(contract, { force: true });
    }
  });

  it("the checkpoint commands and the overview's checkpoint buttons work on the store", async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
    git('init', '--quiet');
    git('config', 'user.email', 'it@example.invalid');
    git('config', 'user.name', 'integration');
    mkdirSync(join(root, '.git', 'info'), { recursive: true });
    writeFileSync(join(root, '.git', 'info', 'exclude'), '.loop/\n');
    const file = join(root, 'pg-ck.txt');
    let overview: OverviewPanel | undefined;
    try {
      writeFileSync(file, 'one\n');
      git('add', '-A');
      git('commit', '--quiet', '-m', 'initial');
      for (const args of [
        ['open', '--session', 'store-ck', '--contract', contractFixture()],
        ['iterate', '--session', 'store-ck', '--outcome', 'continue', '--checkpoint'],
      ]) {
        const r = await cli(...args);
        assert.equal(r.code, 0, r.stderr);
      }
      writeFileSync(file, 'two\n');
      const second = await cli('iterate', '--session', 'store-ck', '--outcome', 'continue', '--checkpoint');
      assert.equal(second.code, 0, second.stderr);
      writeFileSync(file, 'three\n');
      await waitFor('the checkpoints in the tree', () => iterations('store-ck') === 2, 5_000);
      const node = (n: number): IterationNode => {
        const session = api.sessions.findSession(root, 'store-ck')!;
        const epochs = api.sessions.childrenOf(session).filter((c): c is EpochNode => c.kind === 'epoch');
        const found = epochs
          .flatMap((e) => api.sessions.childrenOf(e))
          .find((c): c is IterationNode => c.kind === 'iteration' && c.record.n === n);
        assert.ok(found, `iteration ${n} in the tree`);
        return found;
      };

      const previous = (await vscode.commands.executeCommand(
        'loopLedger.checkpoint.compareWithPrevious',
        node(2),
      )) as CommandReport<{ files: string[] }>;
      assert.equal(previous.status, 'done', previous.message);
      assert.deepEqual(previous.payload?.files, ['pg-ck.txt']);
      const workspace = (await vscode.commands.executeCommand(
        'loopLedger.checkpoint.compareWithWorkspace',
        node(2),
      )) as CommandReport<{ files: string[] }>;
      assert.equal(workspace.status, 'done', workspace.message);
      assert.deepEqual(workspace.payload?.files, ['pg-ck.txt']);

      // The overview offers the buttons on the store, and its Restore is the tree's command.
      overview = await vscode.commands.executeCommand<OverviewPanel>('loopLedger.showSessionOverview', {
        root,
        session: 'store-ck',
      });
      assert.ok(overview);
      await overview.receive({ type: 'ready', buckets: 200 });
      const offered = nextPost(
        overview,
        (m): m is Extract<ToOverview, { type: 'iteration' }> => m.type === 'iteration',
        'iteration 1',
      );
      await overview.receive({ type: 'showIteration', requestId: 'ck-1', n: 1 });
      assert.equal((await offered).checkpoint, true, 'the checkpoint buttons are offered');
      const prompter = new ScriptedPrompter([{ step: 'checkpoint.restore', confirm: true }]);
      const using = testing.prompter.use(prompter);
      const rejected: ToOverview[] = [];
      const listening = overview.onDidPost((m) => m.type === 'rejected' && rejected.push(m));
      try {
        const answer = await overview.receive({
          type: 'checkpoint',
          requestId: 'ck-2',
          n: 1,
          action: 'restore',
        });
        assert.deepEqual(answer, { accepted: true, type: 'checkpoint' });
      } finally {
        listening.dispose();
        using.dispose();
      }
      assert.deepEqual(rejected, []);
      assert.deepEqual(prompter.remaining, []);
      assert.equal(readFileSync(file, 'utf8'), 'one\n', 'the workspace restored to iteration 1');
      const records = await storedRecords('store-ck');
      assert.deepEqual(
        records.map((r) => r.outcome),
        ['continue', 'continue', 'pause'],
        'the restore recorded as a pause iteration in the store',
      );
      noLedgerFile('store-ck');
    } finally {
      overview?.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      for (const path of ['.git', 'pg-ck.txt']) rmSync(join(root, path), { recursive: true, force: true });
    }
  });

  it('Run Queue runs `wo run` on the store: one session per work order there, none in the files', async () => {
    const task = join(root, 'pg-wo', 'queue');
    const code = join(root, 'pg-wo', 'code');
    mkdirSync(join(task, 'work-orders'), { recursive: true });
    writeFileSync(
      join(task, 'work-orders', 'wo-01-first.md'),
      [
        '---',
        'id: local:pg#wo-01',
        'title: Part 1',
        'status: ready',
        'blocked_by: []',
        'verified: true',
        'coverage_status: covered',
        'drift_guard: {symbols_resolved: true, acceptance_runnable: true}',
        '---',
        '## Files to touch',
        '- `src/wo-01.txt`',
        '',
      ].join('\n'),
    );
    mkdirSync(code, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: code, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'it@example.com');
    git('config', 'user.name', 'it');
    writeFileSync(join(code, 'README.md'), 'base\n');
    git('add', '-A');
    git('commit', '-qm', 'base');
    const agent = (name: string) =>
      `ELECTRON_RUN_AS_NODE=1 "${process.execPath}" "${join(extensionPath(), 'test', 'fixtures', 'wo', `${name}.mjs`)}"`;
    const settings = vscode.workspace.getConfiguration('loopLedger.workOrders');
    const set = (key: string, value: string | undefined) =>
      settings.update(key, value, vscode.ConfigurationTarget.Workspace);
    try {
      await set('builder', agent('builder'));
      await set('reviewer', agent('reviewer'));
      await set('critic', agent('critic'));
      await set('worktree', code);
      api.workOrders.refresh();
      const taskNode = (await api.workOrders.getChildren()).find(
        (n) => n.kind === 'task' && n.task.path === task,
      );
      assert.ok(taskNode, 'the task in the Work Orders view');
      const result = await scripted<QueueResult>(
        [
          { step: 'wo.builderChoice', pick: 'Custom builder and reviewer commands…' },
          { step: 'wo.mode', pick: 'Sequential' },
        ],
        'loopLedger.wo.runQueue',
        taskNode,
      );
      assert.equal(result.exitCode, 0, result.stderr);
      assert.equal(result.summary?.outcome, 'complete');
      assert.doesNotMatch(result.stderr, /wo-ledger|s3cret/);
      const records = await storedRecords('wo-01');
      assert.ok(records.length >= 1, "the work order's iterations are in the store");
      noLedgerFile('wo-01');
      await waitFor("the work order's session in the tree", () => (iterations('wo-01') ?? 0) >= 1, 5_000);
    } finally {
      for (const key of ['builder', 'reviewer', 'critic', 'worktree']) await set(key, undefined);
      rmSync(join(root, 'pg-wo'), { recursive: true, force: true });
    }
  });

  it("agent mode's MCP server gets the store's password from secret storage as it starts, and reads the store", async () => {
    const [offered] = (await testing.mcp.definitions()) as [vscode.McpStdioServerDefinition];
    const at = offered.args.indexOf('--store');
    assert.deepEqual(offered.args.slice(at, at + 4), ['--store', agentUrl, '--project', project]);
    assert.equal(offered.env.PGPASSWORD, undefined, 'the listed definition holds no password');
    assert.ok(!JSON.stringify(offered).includes('s3cret'));
    const started = await testing.mcp.resolve(offered);
    assert.ok(started);
    assert.equal(started.env.PGPASSWORD, PASSWORD, "the password is in the started process's environment");
    const answers = await talk(
      started,
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'it', version: '1' },
          },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'session_status', arguments: { session: 's1' } },
        },
      ],
      [1, 2],
    );
    const text = answers.get(2).result.content[0].text as string;
    assert.equal(JSON.parse(text).iterations, iterations('s1'), text);
    const untrusted = testing.trust.simulateUntrusted();
    try {
      assert.equal(await testing.mcp.resolve(offered), undefined, 'not started in an untrusted workspace');
    } finally {
      untrusted.dispose();
    }
  });

  it("the overview and the dashboard follow a CLI process's write to the store within a second", async () => {
    const opened = await cli('open', '--session', 'store-live', '--contract', contractFixture());
    assert.equal(opened.code, 0, opened.stderr);
    await waitFor('the session in the tree', () => iterations('store-live') === 0, 5_000);
    const overview = await vscode.commands.executeCommand<OverviewPanel>('loopLedger.showSessionOverview', {
      root,
      session: 'store-live',
    });
    const dashboard = await vscode.commands.executeCommand<DashboardPanel>('loopLedger.showDashboard');
    try {
      const first = nextPost(overview, isModel(0), 'the overview of 0 iterations');
      await overview.receive({ type: 'ready', buckets: 200 });
      await first;
      const rows = nextPost(dashboard, dashboardWith(0), 'the dashboard row at 0');
      await dashboard.receive({ type: 'ready' });
      await rows;
      // Each arrival is stamped as it is posted (possibly before the CLI's exit is seen).
      const arrived = (p: Promise<unknown>) => p.then(() => Date.now());
      const model = arrived(nextPost(overview, isModel(1), 'the overview after the write', 5_000));
      const row = arrived(nextPost(dashboard, dashboardWith(1), 'the dashboard after the write', 5_000));
      const written = await cli('iterate', '--session', 'store-live', '--outcome', 'continue');
      const exited = Date.now();
      assert.equal(written.code, 0, written.stderr);
      const overviewMs = (await model) - exited;
      const dashboardMs = (await row) - exited;
      console.log(`    overview ${overviewMs} ms, dashboard ${dashboardMs} ms after the CLI exited`);
      assert.ok(overviewMs <= 1_000, `overview after ${overviewMs} ms`);
      assert.ok(dashboardMs <= 1_000, `dashboard after ${dashboardMs} ms`);
    } finally {
      overview.dispose();
      dashboard.dispose();
    }
  });

  it('Run Loop runs on the store: its ledger in the store (the tree follows), its run folder in the folder', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
    git('init', '--quiet');
    git('config', 'user.email', 'it@example.invalid');
    git('config', 'user.name', 'integration');
    mkdirSync(join(root, '.git', 'info'), { recursive: true });
    writeFileSync(join(root, '.git', 'info', 'exclude'), '.loop/\n');
    git('add', '-A');
    git('commit', '--quiet', '--allow-empty', '-m', 'initial');
    try {
      const prompter = new ScriptedPrompter([
        { step: 'run.session', text: 'store-run' },
        { step: 'run.objective', text: 'Write the demo note' },
        { step: 'run.allow', text: 'docs/**' },
        { step: 'run.extraCheck', text: 'test -f docs/loop-demo.md' },
        { step: 'run.agentConfig', pick: 'Fake agent (no LLM)' },
        { step: 'run.maxAttempts', text: '2' },
      ]);
      const using = testing.prompter.use(prompter);
      let report: CommandReport<RunOpResult>;
      try {
        report = (await vscode.commands.executeCommand('loopLedger.runLoop')) as CommandReport<RunOpResult>;
      } finally {
        using.dispose();
      }
      assert.equal(report.status, 'done', report.message);
      const result = report.payload;
      assert.ok(result && result.kind === 'receipt', JSON.stringify(result));
      assert.equal(result.receipt.final_verdict, 'PASS', result.receipt.stop_reason);
      const stored = await sql(
        'SELECT record FROM loop_ledger_iterations WHERE project = $1 AND session = $2 ORDER BY n',
        [project, 'store-run'],
      );
      assert.equal(stored.rows.length, 1);
      // Its checkpoint: the key in the store's row, the commit and ref in this repository.
      const checkpoint = JSON.parse(stored.rows[0].record).checkpoint as { ref: string; commit: string };
      assert.equal(checkpoint.ref, 'refs/loop-ledger/store-run/1-1');
      assert.equal(git('rev-parse', checkpoint.ref).trim(), checkpoint.commit);
      assert.equal(existsSync(join(root, '.loop', 'ledgers', 'store-run.json')), false, 'no ledger file');
      assert.ok(existsSync(join(root, result.runDir, 'final-receipt.json')), 'the run folder is local');
      await waitFor('the tree shows the run from the store', () => iterations('store-run') === 1, 10_000);
    } finally {
      for (const path of ['.git', 'docs', join('.loop', 'runs')])
        rmSync(join(root, path), { recursive: true, force: true });
    }
  });

  it('the server stopped: shown disconnected; started again: reconnects and catches up', async () => {
    cluster.stopServer();
    try {
      await waitFor('disconnected', () => state().state === 'disconnected', 10_000);
      assert.match(state().text, /disconnected/);
    } finally {
      cluster.startServer();
    }
    const written = await cli('iterate', '--session', 's1', '--outcome', 'continue', '--action', 'cli-2');
    assert.equal(written.code, 0, written.stderr);
    await waitFor('reconnected', () => state().state === 'connected', 15_000);
    await waitFor('the write made while reconnecting', () => iterations('s1') === 5, 5_000);
  });
});
