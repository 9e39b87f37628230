// `loop-ledger mcp` on a PostgreSQL store, as an MCP client drives it (the SDK's client over
// stdio, the server a child process) against a real throwaway cluster: its writes are the
// store's (the CLI sees them), every call its own request id, a retried call not doubled, a
// brief assembled by one server judged through another, the password never printed, and the
// server down then back: one clear error, and the same server works again; run_loop runs the
// harness with its ledger in the store.
import { strict as assert } from 'node:assert';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { withStoreDatabase } from '../helpers/pg-cluster';
import { cli, CONTRACT, tempRoot } from '../helpers/pg-cli';
import { call, connect, type Connected } from '../mcp/client';
import { CHECK, repoWithContract } from '../mcp/run-fixture';

const SECRET = 'Pw-n0t-For-Print';

const DIFF = `diff --git a/src/app.ts b/src/app.ts
--- a/src/app.ts
+++ b/src/app.ts
@@ -1 +1 @@
-one
+two
`;

describe('mcp and brief on a PostgreSQL store', function () {
  this.timeout(300_000);
  const db = withStoreDatabase('pg_mcp');
  // With a password in it: trust authentication ignores it, and nothing may ever print it.
  let url: string;
  let root: string;
  let mcp: Connected;
  let stderr = '';
  const project = 'pgmcp';
  const storeArgs = () => ['--store', url, '--project', project];

  before(async () => {
    url = db.url.replace('postgres@', `postgres:${SECRET}@`);
    root = tempRoot('w');
    mkdirSync(root, { recursive: true });
    copyFileSync(CONTRACT, join(root, 'c.loop-contract.json'));
    writeFileSync(join(root, 'change.diff'), DIFF);
    const migrated = cli(['store', 'migrate', '--root', root, ...storeArgs()]);
    assert.equal(migrated.code, 0, migrated.stderr);
    mcp = await connect(root, storeArgs(), { LOOP_LEDGER_STORE_RETRY_MS: '1500' });
    mcp.transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  });
  after(async () => {
    await mcp?.close();
  });

  const status = (session: string) =>
    cli(['status', '--session', session, '--root', root, ...storeArgs(), '--json']);

  it("writes go to the store (the CLI's status sees them), nothing to the files", async () => {
    const opened = await call(mcp.client, 'open_loop', { session: 's1', contract: 'c.loop-contract.json' });
    assert.equal(opened.isError, false, opened.text);
    assert.equal(opened.data.next_iteration, 1);
    const rec = await call(mcp.client, 'record_iteration', {
      session: 's1',
      outcome: 'continue',
      note: "it's",
    });
    assert.equal(rec.isError, false, rec.text);
    assert.equal(rec.data.n, 1);
    const st = status('s1');
    assert.equal(st.code, 0, st.stderr);
    assert.equal(st.json.iterations, 1);
    assert.ok(!existsSync(join(root, '.loop', 'ledgers')), 'no ledger file written');
    // The MCP read tools read the store too, with the same payload as the CLI.
    const viaMcp = await call(mcp.client, 'session_status', { session: 's1' });
    assert.equal(viaMcp.isError, false, viaMcp.text);
    assert.equal(viaMcp.data.iterations, 1);
    const listed = await call(mcp.client, 'list_sessions', {});
    assert.deepEqual(
      listed.data.sessions.map((s: { session: string }) => s.session),
      ['s1'],
    );
    const iterations = await call(mcp.client, 'list_iterations', { session: 's1', fields: ['note'] });
    assert.deepEqual(iterations.data.iterations, [{ n: 1, note: "it's" }]);
    const ledger = await mcp.client.readResource({ uri: 'loop-ledger://ledger/s1' });
    const text = (ledger.contents[0] as { text: string }).text;
    assert.equal(JSON.parse(text).iterations.length, 1);
    const { resources } = await mcp.client.listResources();
    assert.ok(resources.some((r) => r.uri === 'loop-ledger://ledger/s1'));
  });

  it('each call is its own write (no request id shared); a retried call with action ids is not doubled', async () => {
    // Two identical calls without action ids are two iterations, as two CLI runs are: a request id
    // reused across calls would report the second as the first, done already.
    for (let i = 0; i < 2; i++) {
      const r = await call(mcp.client, 'record_iteration', { session: 's1', outcome: 'continue' });
      assert.equal(r.isError, false, r.text);
    }
    assert.equal(status('s1').json.iterations, 3);
    const once = { session: 's1', outcome: 'continue', actions: ['fix-1'] };
    const first = await call(mcp.client, 'record_iteration', once);
    assert.equal(first.isError, false, first.text);
    const retried = await call(mcp.client, 'record_iteration', once);
    assert.equal(retried.isError, true);
    assert.equal(retried.exitCode, 5, retried.text);
    assert.equal(status('s1').json.iterations, 4);
  });

  it('a brief assembled by one server is judged through another (another root): the store keeps the packet', async () => {
    const brief = await call(mcp.client, 'assemble_brief', {
      session: 's1',
      diff_file: 'change.diff',
      verification: 'tests: 3 passed',
    });
    assert.equal(brief.isError, false, brief.text);
    const id = brief.data.brief_id as string;
    // A second server, as on another machine: its own root, nothing assembled in its memory.
    const elsewhere = tempRoot('other');
    mkdirSync(elsewhere, { recursive: true });
    const other = await connect(elsewhere, storeArgs());
    try {
      const summary = await call(other.client, 'brief_summary', { session: 's1' });
      assert.equal(summary.isError, false, summary.text);
      assert.deepEqual(
        [summary.data.available, summary.data.pending, summary.data.brief_id, summary.data.files],
        [true, true, id, ['src/app.ts']],
      );
      const packet = await other.client.readResource({ uri: summary.data.uri });
      assert.equal(JSON.parse((packet.contents[0] as { text: string }).text).diff, DIFF);
      const verdict = await call(other.client, 'record_iteration', {
        session: 's1',
        outcome: 'continue',
        critic_verdict: 'PASS',
        critic_next: 'measure it',
        critic_brief: id,
        evidence_paths: ['ci.log'],
      });
      assert.equal(verdict.isError, false, verdict.text);
      assert.equal(verdict.data.critic_brief, id);
    } finally {
      await other.close();
    }
    const st = status('s1');
    assert.equal(st.json.critic_verdict, 'PASS');
    const again = await call(mcp.client, 'brief_summary', { session: 's1' });
    assert.equal(again.data.pending, false, 'the verdict spent the brief');
  });

  it('the server down: one clear error naming the host, never the password; back: the same server works', async () => {
    // A session of its own: the verdict above ended s1 (the contract stops on PASS).
    const opened = await call(mcp.client, 'open_loop', { session: 's3', contract: 'c.loop-contract.json' });
    assert.equal(opened.isError, false, opened.text);
    db.cluster.stopServer();
    try {
      const down = await call(mcp.client, 'session_status', { session: 's3' });
      assert.equal(down.isError, true);
      assert.equal(down.exitCode, 74, down.text);
      assert.match(
        down.text,
        new RegExp(`cannot reach the PostgreSQL ledger store at 127\\.0\\.0\\.1:${db.port}/${db.name}`),
      );
      assert.equal(down.text.split('\n').length, 1, down.text);
      assert.ok(!down.text.includes(SECRET), down.text);
      const write = await call(mcp.client, 'record_iteration', { session: 's3', outcome: 'continue' });
      assert.equal(write.exitCode, 74, write.text);
      await assert.rejects(mcp.client.listResources(), /cannot reach the PostgreSQL ledger store/);
    } finally {
      db.cluster.startServer();
    }
    const back = await call(mcp.client, 'record_iteration', { session: 's3', outcome: 'continue' });
    assert.equal(back.isError, false, back.text);
    assert.equal(status('s3').json.iterations, 1, 'the refused write wrote nothing; the next one did');
    assert.ok(!stderr.includes(SECRET), stderr);
  });

  it('resource subscriptions follow the store: another process’s write is announced', async () => {
    const updated = new Promise<string>((resolve) => {
      mcp.client.fallbackNotificationHandler = async (n) => {
        if (n.method === 'notifications/resources/updated') resolve((n.params as { uri: string }).uri);
      };
    });
    await mcp.client.subscribeResource({ uri: 'loop-ledger://ledger/s3' });
    // Let the follower's LISTEN start before the write it must hear of.
    await new Promise((r) => setTimeout(r, 1500));
    const r = cli(['iterate', '--session', 's3', '--outcome', 'continue', '--root', root, ...storeArgs()]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await updated, 'loop-ledger://ledger/s3');
  });

  it('refuses a project without a store', () => {
    const noStore = cli(['mcp', '--root', root, '--project', 'x']);
    assert.equal(noStore.code, 2);
    assert.match(noStore.stderr, /--project needs a store/);
  });

  it('run_loop on a store: the ledger in the store, the run folder local, the payload as on files', async () => {
    const onFiles = repoWithContract();
    const onStore = repoWithContract();
    const files = await connect(onFiles, ['--allow-run'], { LOOP_FIXTURE_MODE: 'pass' });
    const served = await connect(onStore, ['--allow-run', '--store', url, '--project', 'pgrun'], {
      LOOP_FIXTURE_MODE: 'pass',
      LOOP_LEDGER_STORE_RETRY_MS: '0',
    });
    try {
      const payloads: Record<string, unknown>[] = [];
      for (const server of [files, served]) {
        const opened = await call(server.client, 'open_loop', {
          session: 'r1',
          contract: 'run.loop-contract.json',
        });
        assert.equal(opened.isError, false, opened.text);
        const ran = await call(server.client, 'run_loop', { session: 'r1', agent_config: 'agents.toml' });
        assert.equal(ran.isError, false, ran.text);
        payloads.push(ran.data);
      }
      const [a, b] = payloads;
      // The same payload but for the run folder's name (its run id and time).
      assert.match(String(b?.run_dir), /^\.loop\/runs\//);
      assert.deepEqual({ ...b, run_dir: '' }, { ...a, run_dir: '' });
      assert.equal(b?.final_verdict, 'PASS');
      assert.ok(
        existsSync(join(onStore, String(b?.run_dir), 'final-receipt.json')),
        'the run folder is local',
      );
      assert.ok(!existsSync(join(onStore, '.loop', 'ledgers')), 'no ledger file');
      const sql = new Client(db.url);
      await sql.connect();
      try {
        const rows = await sql.query<{ record: string }>(
          'SELECT record FROM loop_ledger_iterations WHERE project = $1 AND session = $2 ORDER BY n',
          ['pgrun', 'r1'],
        );
        assert.equal(rows.rows.length, 1);
        const record = JSON.parse(rows.rows[0]!.record) as { outcome: string; commands_run: string[] };
        assert.equal(record.outcome, 'complete');
        assert.ok(record.commands_run.includes(CHECK), JSON.stringify(record));
      } finally {
        await sql.end();
      }
    } finally {
      await files.close();
      await served.close();
    }
  });

  it('the store holds the packet in its briefs table (what a verdict elsewhere needs)', async () => {
    const sql = new Client(db.url);
    await sql.connect();
    try {
      const rows = await sql.query(
        "SELECT session, brief_id FROM loop_ledger_briefs WHERE project = $1 AND session = 's1'",
        [project],
      );
      assert.equal(rows.rows.length, 1);
      assert.equal(rows.rows[0].session, 's1');
    } finally {
      await sql.end();
    }
  });

  it('`brief` and a verdict bound to it on a store (CLI): the packet is kept, a retried brief is the same, the verdict spends it', () => {
    const on = (args: string[]) => cli([...args, '--root', root, ...storeArgs()]);
    assert.equal(on(['open', '--session', 's2', '--contract', CONTRACT]).code, 0);
    writeFileSync(join(root, 'verify.txt'), 'tests: 3 passed\n');
    const briefArgs = ['brief', '--session', 's2', '--diff-file', join(root, 'change.diff')];
    const verify = ['--verification-file', join(root, 'verify.txt'), '--json', '--request-id', 'brief-r1'];
    const first = on([...briefArgs, ...verify]);
    assert.equal(first.code, 0, first.stderr);
    assert.ok(!existsSync(join(root, '.loop', 'ledgers')), 'no ledger file written');
    // The same request sent again (a killed command re-run): the same packet, not a second write.
    const retried = on([...briefArgs, ...verify]);
    assert.equal(retried.code, 0, retried.stderr);
    assert.equal(retried.stdout, first.stdout);
    const id = first.json.brief_id as string;
    const verdict = [
      'iterate',
      '--session',
      's2',
      '--outcome',
      'continue',
      '--critic-verdict',
      'PASS',
      '--critic-next',
      'measure the suite',
      '--evidence-path',
      'ci.log',
      '--critic-brief',
      id,
      '--json',
    ];
    const recorded = on(verdict);
    assert.equal(recorded.code, 0, recorded.stderr);
    assert.equal(recorded.json.critic_brief, id);
    assert.equal(status('s2').json.critic_verdict, 'PASS');
    const again = on(verdict);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /no brief pending/);
  });
});
