// `run`, `repeat` and `wo run` on a PostgreSQL store, each as a real child process with
// LOOP_LEDGER_STORE set and the repository's fake agents: their ledgers land in the store (read
// back by `status`/`list` from another root, as another machine would, and as rows), their working
// files stay on the machine, and a store that cannot be reached stops them before anything is
// written, in one line naming the host and never the password (exit 74). `--store URL` and
// `--project NAME` on each select the store over the environment; each iteration carries its
// checkpoint (the key in the store's row, the commit and ref in the local repository).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Client } from 'pg';
import { withStoreDatabase } from '../helpers/pg-cluster';
import { cli, tempRoot } from '../helpers/pg-cli';
import { CLI, childEnv, cliResultOf, runCli } from '../helpers/cli';
import { runDirOf, runSample, sampleRepo } from '../run/helpers';
import { STEP } from '../repeat/workspace';
import { makeTask } from '../wo/fixture';
import { call, connect } from '../mcp/client';
import { woRun } from '../wo/run-helpers';
import { spawnSync } from 'node:child_process';

const SECRET = 'pa55-w0rd';
const DEAD = `postgres://ledger:${SECRET}@127.0.0.1:1/ledgers`;

type Row = Record<string, unknown>;

function checkpointOf(record: Row | undefined): { commit: string; ref: string } {
  const key = record?.checkpoint as { commit: string; ref: string } | undefined;
  assert.ok(key, `no checkpoint: ${String(record?.checkpoint_skipped)}`);
  return key;
}

/** Each record's checkpoint names a ref of `repo` (the `refs` given, in order) pointing at its commit. */
function assertLive(repo: string, records: Row[], refs: string[]): void {
  assert.deepEqual(
    records.map((r) => checkpointOf(r).ref),
    refs,
  );
  for (const r of records) {
    const { ref, commit } = checkpointOf(r);
    assert.equal(execFileSync('git', ['-C', repo, 'rev-parse', ref], { encoding: 'utf8' }).trim(), commit);
  }
}

function assertUnreachable(r: { code: number | null; stderr: string }): void {
  assert.equal(r.code, 74, r.stderr);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(r.stderr, /cannot reach the PostgreSQL ledger store at 127\.0\.0\.1:1\/ledgers/);
  assert.ok(!r.stderr.includes(SECRET), r.stderr);
}

describe('run, repeat and wo run on a PostgreSQL store', function () {
  this.timeout(300_000);
  const db = withStoreDatabase('pg_drivers');
  let url: string;

  before(async () => {
    url = db.url;
    const migrated = cli(['store', 'migrate', '--root', tempRoot('m'), '--store', url]);
    assert.equal(migrated.code, 0, migrated.stderr);
  });

  const rows = async (project: string, session: string) => {
    const client = new Client(url);
    await client.connect();
    try {
      const r = await client.query<{ record: string }>(
        'SELECT record FROM loop_ledger_iterations WHERE project = $1 AND session = $2 ORDER BY n',
        [project, session],
      );
      return r.rows.map((row) => JSON.parse(row.record) as Record<string, unknown>);
    } finally {
      await client.end();
    }
  };

  /** `status` as a lead on another machine runs it: another root, the project named. */
  const statusElsewhere = (project: string, session: string) =>
    cli([
      'status',
      '--session',
      session,
      '--root',
      tempRoot('lead'),
      '--project',
      project,
      '--store',
      url,
      '--json',
    ]);

  it('run: the epoch, each attempt and the ending go to the store; the run folder stays local', async () => {
    const repo = sampleRepo();
    const project = basename(repo);
    const r = runSample(repo, 'pass', ['--session', 'r1'], {
      LOOP_LEDGER_STORE: url,
      LOOP_LEDGER_STORE_RETRY_MS: '0',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.final_verdict, 'PASS');
    // The working files are this machine's: run folder and receipt; no ledger file.
    assert.ok(existsSync(join(runDirOf(repo, r), 'final-receipt.json')));
    assert.ok(!existsSync(join(repo, '.loop', 'ledgers')), 'no ledger file is written');
    const status = statusElsewhere(project, 'r1');
    assert.equal(status.code, 0, status.stderr);
    assert.equal(status.json.session, 'r1');
    assert.equal(status.json.iterations, 1);
    const records = await rows(project, 'r1');
    assert.equal(records.length, 1);
    // The checkpoint: its key in the store's row, its commit and ref in this repository.
    assertLive(repo, records, ['refs/loop-ledger/r1/1-1']);
    const listed = cli(['checkpoint', 'list', '--session', 'r1', '--root', repo, '--store', url, '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(JSON.stringify(listed.json).includes(String(checkpointOf(records[0]).commit)), listed.stdout);
    assert.match(String(records[0]?.note ?? ''), /run_id=|run /);
    // The ending the harness vouches for (its seal) is in the store's ledger too.
    const exported = tempRoot('export');
    mkdirSync(exported, { recursive: true });
    const out = cli(['store', 'export', '--root', exported, '--project', project, '--store', url, '--json']);
    assert.equal(out.code, 0, out.stderr);
    const ledger = JSON.parse(
      execFileSync('cat', [join(exported, '.loop', 'ledgers', 'r1.json')], { encoding: 'utf8' }),
    ) as Record<string, unknown>;
    assert.equal((ledger.run_ending as { run_id: string }).run_id, r.json.run_id);
    // `list` from elsewhere names the session in the store.
    const list = cli(['list', '--root', tempRoot('lead'), '--project', project, '--store', url, '--json']);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      list.json.sessions.map((s: { session: string }) => s.session),
      ['r1'],
    );
    // A second run on the same session opens the next epoch in the store.
    const again = runSample(repo, 'pass', ['--session', 'r1', '--no-require-clean'], {
      LOOP_LEDGER_STORE: url,
    });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(statusElsewhere(project, 'r1').json.epoch, 2);
  });

  it("run: an agent writing to the run's session in the store is caught, as an edited ledger file is", async () => {
    const repo = sampleRepo();
    const project = basename(repo);
    const r = runSample(repo, 'coder-writes-store', ['--session', 'edited'], {
      LOOP_LEDGER_STORE: url,
      FIXTURE_SESSION: 'edited',
      FIXTURE_STORE: url,
      FIXTURE_PROJECT: project,
      FIXTURE_CLI: CLI,
    });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.stop_reason, 'AGENT_FAILED');
    assert.match(
      r.json.reviewer.findings[0],
      new RegExp(
        `^coder edited the ledger: edited in the PostgreSQL store 127\\.0\\.0\\.1:${db.port}/${db.name} changed`,
      ),
    );
    const status = statusElsewhere(project, 'edited');
    assert.equal(status.json.status, 'closed');
    assert.equal(status.json.final_outcome, 'escalate');
    // Only the agent's own record: the run recorded nothing into the edited ledger.
    assert.equal((await rows(project, 'edited')).length, 1);
  });

  it('run --store/--project (over the environment): recorded there; a malformed --store is exit 2 naming it', async () => {
    const repo = sampleRepo();
    const r = runSample(repo, 'pass', ['--session', 'f1', '--store', url, '--project', 'runflag'], {
      LOOP_LEDGER_STORE: DEAD,
      LOOP_LEDGER_STORE_RETRY_MS: '0',
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.final_verdict, 'PASS');
    const records = await rows('runflag', 'f1');
    assert.equal(records.length, 1);
    assertLive(repo, records, ['refs/loop-ledger/f1/1-1']);
    assert.equal(statusElsewhere('runflag', 'f1').json.iterations, 1);
    // `--store=URL`, as argparse reads it, and the original's abbreviations untouched.
    const other = runSample(
      repo,
      'pass',
      ['--ses', 'f2', `--store=${url}`, '--proj', 'runflag', '--no-req'],
      {
        LOOP_LEDGER_STORE_RETRY_MS: '0',
      },
    );
    assert.equal(other.code, 0, other.stderr);
    assert.equal((await rows('runflag', 'f2')).length, 1);
    const bad = runSample(repo, 'pass', ['--session', 'f3', '--store', 'http://h/db']);
    assert.equal(bad.code, 2, bad.stderr);
    assert.equal(
      bad.stderr,
      'loop-ledger run: --store: not a postgres:// or postgresql:// connection string\n',
    );
    const noStore = runSample(repo, 'pass', ['--session', 'f3', '--project', 'p']);
    assert.equal(noStore.code, 2, noStore.stderr);
    assert.match(noStore.stderr, /--project needs a store/);
    assertUnreachable(
      runSample(repo, 'pass', ['--session', 'f3', '--no-require-clean', '--store', DEAD], {
        LOOP_LEDGER_STORE_RETRY_MS: '0',
      }),
    );
  });

  it('run: an unreachable store stops it before anything is written (exit 74, the host, no password)', () => {
    const repo = sampleRepo();
    const r = runSample(repo, 'pass', ['--session', 'r1'], {
      LOOP_LEDGER_STORE: DEAD,
      LOOP_LEDGER_STORE_RETRY_MS: '0',
    });
    assertUnreachable(r);
    assert.ok(!existsSync(join(repo, '.loop')), 'no run folder, no ledger');
  });

  const repeatRoot = (): { root: string; plan: string } => {
    const outside = tempRoot('rep');
    const root = join(outside, 'root');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'README.md'), 'A small project.\n');
    execFileSync('git', ['init', '-q', '-b', 'main', root]);
    execFileSync('git', ['-C', root, 'add', '-A']);
    execFileSync('git', [
      '-C',
      root,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@e',
      'commit',
      '-q',
      '-m',
      'start',
    ]);
    return { root, plan: join(outside, 'plan.json') };
  };
  const repeat = (root: string, plan: string, env: Record<string, string>, ...args: string[]) =>
    cliResultOf(
      spawnSync(process.execPath, [CLI, 'repeat', '--root', root, '--session', 'rep', ...args], {
        env: childEnv({ REPEAT_PLAN: plan, CI: '', LOOP_LEDGER_STORE_RETRY_MS: '0', ...env }),
        encoding: 'utf8',
        timeout: 60_000,
      }),
    );

  it('repeat: each recorded run and the settled ending go to the store', async () => {
    const { root, plan } = repeatRoot();
    const project = basename(root);
    const contract = join(root, '..', 'contract.json');
    execFileSync('cp', [
      join(__dirname, '../../../../test/fixtures/contracts/valid.loop-contract.json'),
      contract,
    ]);
    const opened = runCli(['open', '--root', root, '--session', 'rep', '--contract', contract], {
      env: { LOOP_LEDGER_STORE: url },
    });
    assert.equal(opened.code, 0, opened.stderr);
    writeFileSync(
      plan,
      JSON.stringify([
        { summary: 'Applied 8 recommendations', files: { 'src/a.txt': 'one' } },
        { summary: 'Applied 2 follow-on fixes', files: { 'src/a.txt': 'two' } },
        { summary: 'Analysis complete. No recommendations.' },
      ]),
    );
    const r = repeat(root, plan, { LOOP_LEDGER_STORE: url }, '--json', '--', 'node', STEP);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.exit_reason, 'settled');
    assert.ok(!existsSync(join(root, '.loop', 'ledgers')), 'no ledger file is written');
    const records = await rows(project, 'rep');
    assert.deepEqual(
      records.map((rec) => (rec.repeat as { classification: string }).classification),
      ['continuing', 'continuing', 'settled'],
    );
    assertLive(root, records, [
      'refs/loop-ledger/rep/1-1',
      'refs/loop-ledger/rep/1-2',
      'refs/loop-ledger/rep/1-3',
    ]);
    const status = statusElsewhere(project, 'rep');
    assert.equal(status.code, 0, status.stderr);
    assert.equal(status.json.status, 'closed');
    assert.equal(status.json.final_outcome, 'complete');
  });

  it('resume --store continues a repeat paused on the store; the MCP resume_loop refuses it as on files', async () => {
    const { root, plan } = repeatRoot();
    // A project of its own: the other repeat tests use the session id `rep` in the folder's project.
    const project = 'resume-repeat';
    const contract = join(root, '..', 'contract.json');
    execFileSync('cp', [
      join(__dirname, '../../../../test/fixtures/contracts/valid.loop-contract.json'),
      contract,
    ]);
    const onStore = { LOOP_LEDGER_STORE: url, LOOP_LEDGER_PROJECT: project };
    assert.equal(
      runCli(['open', '--root', root, '--session', 'rep', '--contract', contract], { env: onStore }).code,
      0,
    );
    const stuck = { summary: 'Recommend extracting a shared validator; verification failed' };
    writeFileSync(
      plan,
      JSON.stringify([
        stuck,
        stuck,
        stuck,
        { summary: 'Applied an edit', files: { 'src/b.txt': '1' } },
        { summary: 'Analysis complete. No recommendations.' },
      ]),
    );
    const paused = repeat(root, plan, onStore, '--json', '--', 'node', STEP);
    assert.equal(paused.code, 11, paused.stderr);
    assert.equal((await rows(project, 'rep')).length, 3);

    // The MCP server on the same store does not run the repeat's commands: it names the CLI.
    const mcp = await connect(root, ['--store', url, '--project', project], {});
    try {
      const refused = await call(mcp.client, 'resume_loop', { session: 'rep' });
      assert.equal(refused.isError, true, refused.text);
      assert.match(refused.text, /its repeat is unfinished; resuming it runs commands/);
    } finally {
      await mcp.close();
    }

    // The CLI's resume continues the repeat on the store (before, it resumed the loop plainly).
    const resumed = cliResultOf(
      spawnSync(
        process.execPath,
        [
          CLI,
          'resume',
          '--root',
          root,
          '--session',
          'rep',
          '--store',
          url,
          '--project',
          project,
          '--answer',
          'skip',
          '--json',
        ],
        {
          env: childEnv({ REPEAT_PLAN: plan, CI: '', LOOP_LEDGER_STORE_RETRY_MS: '0' }),
          encoding: 'utf8',
          timeout: 60_000,
        },
      ),
    );
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.json.exit_reason, 'settled', 'the repeat report, not the plain resume payload');
    assert.ok(!existsSync(join(root, '.loop', 'ledgers')), 'no ledger file is written');
    const records = await rows(project, 'rep');
    assert.deepEqual(
      records.map((rec) => (rec.repeat as { classification: string }).classification),
      ['stalled', 'stalled', 'stalled', 'continuing', 'settled'],
    );
  });

  it('repeat --store/--project (over the environment): recorded in that store and project', async () => {
    const { root, plan } = repeatRoot();
    const contract = join(root, '..', 'contract.json');
    execFileSync('cp', [
      join(__dirname, '../../../../test/fixtures/contracts/valid.loop-contract.json'),
      contract,
    ]);
    const flags = ['--store', url, '--project', 'repflag'];
    const opened = runCli(['open', '--root', root, '--session', 'rep', '--contract', contract, ...flags]);
    assert.equal(opened.code, 0, opened.stderr);
    writeFileSync(
      plan,
      JSON.stringify([
        { summary: 'Applied 1 fix', files: { 'src/a.txt': 'one' } },
        { summary: 'Analysis complete. No recommendations.' },
      ]),
    );
    const r = repeat(root, plan, { LOOP_LEDGER_STORE: DEAD }, '--json', ...flags, '--', 'node', STEP);
    assert.equal(r.code, 0, r.stderr);
    const records = await rows('repflag', 'rep');
    assert.equal(records.length, 2);
    assertLive(root, records, ['refs/loop-ledger/rep/1-1', 'refs/loop-ledger/rep/1-2']);
    const bad = repeat(root, plan, {}, '--store', 'file:///x', '--', 'node', STEP);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(
      bad.stderr,
      /^loop-ledger repeat: --store: not a postgres:\/\/ or postgresql:\/\/ connection string\n$/,
    );
  });

  it('repeat: an unreachable store, exit 74 in one line, nothing written', () => {
    const { root, plan } = repeatRoot();
    writeFileSync(plan, JSON.stringify([{ summary: 'x' }]));
    const r = repeat(root, plan, { LOOP_LEDGER_STORE: DEAD }, '--json', '--', 'node', STEP);
    assertUnreachable(r);
    assert.equal(r.stdout, '');
    assert.ok(!existsSync(join(root, '.loop')), 'nothing under .loop');
  });

  it('wo run: one session per work order in the store, phases as actions, closed complete', async () => {
    const t = makeTask([{ n: 1 }, { n: 2, blockedBy: [1] }], { git: true });
    const r = woRun(t, { env: { LOOP_LEDGER_STORE: url, LOOP_LEDGER_STORE_RETRY_MS: '0' } });
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /wo-ledger/);
    assert.ok(
      !existsSync(join(t.root, '.loop', 'ledgers')) ||
        readdirSync(join(t.root, '.loop', 'ledgers')).length === 0,
      'no ledger file is written',
    );
    const project = basename(t.root);
    for (const id of ['wo-01', 'wo-02']) {
      const status = statusElsewhere(project, id);
      assert.equal(status.code, 0, status.stderr);
      assert.equal(status.json.status, 'closed');
      assert.equal(status.json.final_outcome, 'complete');
      assert.deepEqual(status.json.completed_actions, [
        `${id}/a1/build`,
        `${id}/a1/review`,
        `${id}/a1/critique`,
      ]);
    }
    const records = await rows(project, 'wo-01');
    assert.equal(records.length, 3);
    // The builds happen in another work tree than the root: no checkpoint, saying why (as on files).
    assert.ok(records.every((rec) => /outside the ledger's root/.test(String(rec.checkpoint_skipped))));
  });

  it('wo run --store/--project (over the environment): each phase record carries its checkpoint', async () => {
    const t = makeTask([{ n: 1 }], { git: true });
    // The ledgers' root is the code work tree; keep the fake agents' files out of its status.
    writeFileSync(join(t.worktree, '.gitignore'), '.loop/\nplan.json\nagent-calls.log\n');
    execFileSync('git', ['add', '.gitignore'], { cwd: t.worktree });
    execFileSync('git', ['commit', '-qm', 'ignore'], { cwd: t.worktree });
    const r = woRun(
      { ...t, root: t.worktree },
      {
        env: { LOOP_LEDGER_STORE: DEAD, LOOP_LEDGER_STORE_RETRY_MS: '0' },
        extra: ['--store', url, '--project', 'woflag'],
      },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /wo-ledger/);
    const records = await rows('woflag', 'wo-01');
    assert.deepEqual(
      records.map((rec) => (rec.actions as string[])[0]),
      ['wo-01/a1/build', 'wo-01/a1/review', 'wo-01/a1/critique'],
    );
    assertLive(t.worktree, records, [
      'refs/loop-ledger/wo-01/1-1',
      'refs/loop-ledger/wo-01/1-2',
      'refs/loop-ledger/wo-01/1-3',
    ]);
  });

  it('wo run: a malformed --store is exit 2 naming the flag; an unreachable one exit 74', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const bad = woRun(t, { extra: ['--store', 'mysql://x'] });
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(
      bad.stderr,
      /^loop-ledger wo run: --store: not a postgres:\/\/ or postgresql:\/\/ connection string\n$/,
    );
    assertUnreachable(woRun(t, { env: { LOOP_LEDGER_STORE_RETRY_MS: '0' }, extra: ['--store', DEAD] }));
  });

  it('--help of run, repeat and wo lists --store URL and --project NAME; run --node checks --store too', () => {
    for (const args of [
      ['run', '--help'],
      ['repeat', '--help'],
      ['wo', '--help'],
    ]) {
      const r = runCli(args);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /--store URL/, args.join(' '));
      assert.match(r.stdout, /--project NAME/, args.join(' '));
    }
    const node = runCli(['run', '--node', 'node.json', '--store', 'mysql://h/db']);
    assert.equal(node.code, 2, node.stderr);
    assert.equal(node.stdout, '');
    assert.equal(
      node.stderr,
      'loop-ledger run: --store: not a postgres:// or postgresql:// connection string\n',
    );
  });

  it('wo run: an unreachable store, exit 74 in one line, the queue untouched', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    const r = woRun(t, { env: { LOOP_LEDGER_STORE: DEAD, LOOP_LEDGER_STORE_RETRY_MS: '0' } });
    assertUnreachable(r);
  });
});
