// The extension on a PostgreSQL ledger store, in a real VS Code against a throwaway cluster the
// suite starts: the setting refused with a password in it and ignored in an untrusted workspace;
// the password set through the command (secret storage) for a least-privilege role that needs it;
// the Sessions tree read from the store and following a CLI process's writes through LISTEN; the
// extension's own write going to the store; the language-model tools reading and writing the
// store (a brief assembled and a verdict bound to it); Run Loop recording into the store; the
// command that works on the files only (Run Queue) refused up front, writing nothing; and the server stopped (shown disconnected) and
// started again (reconnected, caught up).
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Client } from 'pg';
import * as vscode from 'vscode';
import type { AssembleResult } from '../../src/extension/brief/assembleBrief';
import type { RunOpResult } from '../../src/app/run/operation';
import type { CommandReport } from '../../src/extension/commands/deps';
import type { ToWebview } from '../../src/shared/protocol';
import type { LoopLedgerApi } from '../../src/extension/extension';
import { ScriptedPrompter } from '../hooks/scriptedPrompter';
import type { TestingApi } from '../hooks/testHooks';
import { startCluster, type PgCluster } from '../unit/helpers/pg-cluster';
import { extensionPath, loopLedgerApi, testingApi, waitFor, workspaceRoot } from './sessionsHelpers';

const ROLE = 'loop_ledger_agent';
const PASSWORD = "it's-a-s3cret\\pw";

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
    assert.equal(api.store.filesOnlyRefusal('Run Loop'), undefined, 'the files are used: nothing refused');
  });

  it('an untrusted workspace connects to no store and says why', async () => {
    const untrusted = testing.trust.simulateUntrusted();
    try {
      await setStore(agentUrl);
      assert.equal(state().state, 'off');
      assert.match(state().text, /not trusted/);
      assert.equal(iterations('s1'), undefined);
      assert.equal(api.store.filesOnlyRefusal('Run Loop'), undefined, 'the files are used: nothing refused');
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

  it('Run Queue and Repeat Until Settled refuse on the store and write nothing', async () => {
    const ledgersDir = join(root, '.loop', 'ledgers');
    const files = () => (existsSync(ledgersDir) ? readdirSync(ledgersDir).sort() : []);
    const rows = async () =>
      (
        await sql(
          `SELECT (SELECT count(*) FROM loop_ledger_sessions WHERE project = $1)::int AS sessions,
                  (SELECT count(*) FROM loop_ledger_iterations WHERE project = $1)::int AS iterations`,
          [project],
        )
      ).rows[0];
    const filesBefore = files();
    const rowsBefore = await rows();
    const refusal =
      /works on the ledger files only; this window uses the PostgreSQL store 127\.0\.0\.1:\d+\/postgres\. Unset loopLedger\.store/;

    // Run Queue (`wo run`, which writes ledger files) and Repeat Until Settled (which reads the
    // ledger file): refused before they ask anything; an unscripted question would throw here.
    const usingQueue = testing.prompter.use(new ScriptedPrompter([]));
    let repeat: CommandReport;
    try {
      assert.equal(await vscode.commands.executeCommand('loopLedger.wo.runQueue'), undefined);
      repeat = (await vscode.commands.executeCommand('loopLedger.repeatUntilSettled')) as CommandReport;
    } finally {
      usingQueue.dispose();
    }
    assert.equal(repeat.status, 'refused', repeat.message);
    assert.equal(repeat.exitCode, 2);
    assert.match(repeat.message ?? '', refusal);
    assert.ok(!repeat.message?.includes('s3cret'), repeat.message);

    assert.deepEqual(files(), filesBefore, 'no ledger file written');
    assert.equal(existsSync(join(ledgersDir, 'run-here.json')), false);
    assert.deepEqual(await rows(), rowsBefore, 'no row written');
    assert.equal(iterations('s1'), 4);
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
