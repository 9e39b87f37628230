// The PostgreSQL store under load and faults, as real processes against a real server: many
// "machines" (roots) writing into shared sessions, the server restarted under running writers,
// a writer's connection cut while it holds the session's row, clients SIGKILLed mid-write and
// retried. Each iteration lands exactly once, n stays gapless.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { withStoreDatabase } from '../helpers/pg-cluster';
import { cli, cliAsync, CONTRACT, pooled, tempRoot } from '../helpers/pg-cli';
import { childEnv } from '../helpers/cli';

/**
 * The size: 4 machines (roots) × 8 writers × 200 iterations. Each writer is one process
 * running the iterate command's code over the shipped store bundle 200 times (pg-writer.ts):
 * 32 processes at once, without 6,400 CLI starts.
 */
const MACHINES = 4;
const WRITERS = 8;
const ITERATIONS = 200;
/** Pure CLI processes (one per iteration) beside them, at a size the unit tier can afford. */
const CLI_PER_WRITER = 2;
const WRITER_SCRIPT = join(__dirname, '..', 'helpers', 'pg-writer.js');

interface WriterLine {
  action: string;
  session: string;
  code: number;
  n: number | null;
}

/** Runs one writer process; resolves with its exit code and the writes it reported. */
function runWriter(plan: object): Promise<{ code: number | null; lines: WriterLine[]; stderr: string }> {
  const child = spawn(process.execPath, [WRITER_SCRIPT, JSON.stringify(plan)], { env: childEnv({}) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({
        code,
        stderr,
        lines: stdout
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as WriterLine),
      }),
    ),
  );
}

describe('PostgreSQL ledger store under load and faults', function () {
  this.timeout(300_000);
  const db = withStoreDatabase('pg_faults');
  let contract: string;

  before(async () => {
    const root = tempRoot('setup');
    assert.equal(cli(['store', 'migrate', '--root', root, '--store', db.url]).code, 0);
    // The fixture's contract, with room for every iteration these tests record.
    const text = JSON.parse(readFileSync(CONTRACT, 'utf8'));
    contract = join(tempRoot('contract'), '..', 'big.loop-contract.json');
    writeFileSync(contract, JSON.stringify({ ...text, iteration_limit: 100000 }));
  });

  const rows = async (session: string): Promise<{ n: number; actions: string[] }[]> => {
    const client = new Client(db.url);
    await client.connect();
    try {
      const r = await client.query<{ n: number; record: string }>(
        `SELECT n, record FROM loop_ledger_iterations WHERE project = 'shared' AND session = $1 ORDER BY n`,
        [session],
      );
      return r.rows.map((row) => ({ n: row.n, actions: JSON.parse(row.record).actions as string[] }));
    } finally {
      await client.end();
    }
  };

  /** Every n from 1 up, each record's `n` its row's, and no action recorded twice. */
  const assertGaplessOnce = (records: { n: number; actions: string[] }[], expected: string[]): void => {
    assert.deepEqual(
      records.map((r) => r.n),
      records.map((_, i) => i + 1),
    );
    const actions = records.flatMap((r) => r.actions);
    assert.equal(new Set(actions).size, actions.length, 'no action recorded twice');
    assert.deepEqual([...actions].sort(), [...expected].sort(), 'no action lost');
  };

  const open = (session: string): void => {
    const r = cli([
      'open',
      '--session',
      session,
      '--contract',
      contract,
      '--root',
      tempRoot('shared'),
      '--store',
      db.url,
    ]);
    assert.equal(r.code, 0, r.stderr);
  };

  it(`${MACHINES} machines × ${WRITERS} writer processes × ${ITERATIONS} iterations into shared sessions: none lost, none doubled, n gapless`, async function () {
    // Seconds on a quiet machine; a machine shared with other heavy work stretches every wake-up.
    this.timeout(900_000);
    const sessions = ['load-a', 'load-b', 'load-c', 'load-d'];
    sessions.forEach(open);
    const roots = Array.from({ length: MACHINES }, () => tempRoot('shared'));
    const expected = new Map<string, string[]>(sessions.map((s) => [s, []]));
    const plans = [];
    for (let m = 0; m < MACHINES; m += 1)
      for (let w = 0; w < WRITERS; w += 1) {
        // Each writer starts on a different session and goes round all four.
        const order = sessions.map((_, k) => sessions[(k + w) % sessions.length] as string);
        const prefix = `m${m}-w${w}`;
        for (let i = 0; i < ITERATIONS; i += 1)
          expected.get(order[i % order.length] as string)?.push(`${prefix}-i${i}`);
        plans.push({
          url: db.url,
          project: 'shared',
          root: roots[m],
          sessions: order,
          prefix,
          count: ITERATIONS,
        });
      }
    const writers = await Promise.all(plans.map(runWriter));
    const reported = new Map<string, number[]>(sessions.map((s) => [s, []]));
    for (const w of writers) {
      assert.equal(w.code, 0, w.stderr);
      assert.equal(w.lines.length, ITERATIONS);
      for (const line of w.lines) reported.get(line.session)?.push(line.n as number);
    }
    const perSession = (MACHINES * WRITERS * ITERATIONS) / sessions.length;
    for (const session of sessions) {
      const want = expected.get(session) as string[];
      assert.equal(want.length, perSession);
      // Every write was answered with its own n: 1..N, each once.
      assert.deepEqual(
        [...(reported.get(session) as number[])].sort((a, b) => a - b),
        want.map((_, i) => i + 1),
        session,
      );
      // The database: one row per n, gapless, every action once.
      assertGaplessOnce(await rows(session), want);
      // What the CLI reports: status, and the ledger JSON as exported.
      const status = cli([
        'status',
        '--session',
        session,
        '--root',
        roots[0] as string,
        '--project',
        'shared',
        '--store',
        db.url,
        '--json',
      ]);
      assert.equal(status.code, 0, status.stderr);
      assert.equal(status.json.iterations, perSession);
      assert.deepEqual([...status.json.completed_actions].sort(), [...want].sort());
    }
    const out = tempRoot('load-out');
    const exported = cli(['store', 'export', '--root', out, '--project', 'shared', '--store', db.url]);
    assert.equal(exported.code, 0, exported.stderr);
    for (const session of sessions) {
      const ledger = JSON.parse(readFileSync(join(out, '.loop', 'ledgers', `${session}.json`), 'utf8'));
      assertGaplessOnce(
        ledger.iterations.map((r: { n: number; actions: string[] }) => ({ n: r.n, actions: r.actions })),
        expected.get(session) as string[],
      );
    }
  });

  it(`${MACHINES} machines × ${WRITERS} writers × ${CLI_PER_WRITER} iterations, one CLI process each: none lost, none doubled`, async () => {
    const sessions = ['one', 'two'];
    sessions.forEach(open);
    const roots = Array.from({ length: MACHINES }, () => tempRoot('shared'));
    const tasks: (() => Promise<{ code: number | null; stderr: string }>)[] = [];
    const expected = new Map<string, string[]>(sessions.map((s) => [s, []]));
    for (let i = 0; i < CLI_PER_WRITER; i += 1)
      for (let m = 0; m < MACHINES; m += 1)
        for (let w = 0; w < WRITERS; w += 1) {
          const session = sessions[w % 2] as string;
          const action = `m${m}-w${w}-i${i}`;
          expected.get(session)?.push(action);
          tasks.push(
            () =>
              cliAsync([
                'iterate',
                '--session',
                session,
                '--outcome',
                'continue',
                '--action',
                action,
                '--root',
                roots[m] as string,
                '--store',
                db.url,
              ]).done,
          );
        }
    // Each machine runs its writers side by side: MACHINES × WRITERS processes at once.
    const results = await pooled(tasks, MACHINES * WRITERS);
    results.forEach((r) => assert.equal(r.code, 0, r.stderr));
    for (const session of sessions) assertGaplessOnce(await rows(session), expected.get(session) as string[]);
  });

  it('one action id sent by every machine at once: exactly one exit 0', async () => {
    open('dup');
    const actions = ['d1', 'd2', 'd3', 'd4'];
    const runs = actions.flatMap((action) =>
      Array.from(
        { length: MACHINES },
        () =>
          cliAsync([
            'iterate',
            '--session',
            'dup',
            '--outcome',
            'continue',
            '--action',
            action,
            '--root',
            tempRoot('shared'),
            '--store',
            db.url,
          ]).done,
      ),
    );
    const results = await Promise.all(runs);
    for (let a = 0; a < actions.length; a += 1) {
      const codes = results.slice(a * MACHINES, (a + 1) * MACHINES).map((r) => r.code);
      assert.deepEqual(
        [...codes].sort(),
        [0, ...Array(MACHINES - 1).fill(5)],
        `${actions[a]}: ${codes.join(',')}`,
      );
    }
    assertGaplessOnce(await rows('dup'), actions);
  });

  /** A connection of the test's own (an error event on it, as when the server stops, is expected). */
  const connect = async (): Promise<Client> => {
    const client = new Client(db.url);
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };

  /** One value from a fresh connection. */
  const one = async <T>(text: string, params: unknown[] = []): Promise<T | undefined> => {
    const client = await connect();
    try {
      return (await client.query(text, params)).rows[0]?.v as T | undefined;
    } finally {
      await client.end();
    }
  };

  /** Polls `text` (one value named v) until `ok` holds; fails after 60 s. */
  const waitFor = async <T>(
    text: string,
    ok: (v: T | undefined) => boolean,
    params: unknown[] = [],
  ): Promise<T> => {
    const until = Date.now() + 60_000;
    for (;;) {
      const v = await one<T>(text, params);
      if (ok(v)) return v as T;
      if (Date.now() > until) throw new Error(`timed out waiting for: ${text} (last ${String(v)})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  /**
   * The backends of writers stopped inside their transaction: holding the table lock below, the
   * test keeps the writer that has the session's row (it updated it and inserts its record) and
   * every writer queued behind it on that row waiting.
   */
  const WAITING = `SELECT count(*)::int AS v FROM pg_stat_activity
    WHERE application_name = 'loop-ledger' AND wait_event_type = 'Lock'`;
  const ROW_HOLDER = `SELECT l.pid AS v FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
    WHERE c.relname = 'loop_ledger_iterations' AND NOT l.granted AND l.pid <> pg_backend_pid()`;

  const holdRecordInserts = async (): Promise<Client> => {
    const locker = await connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE loop_ledger_iterations IN EXCLUSIVE MODE');
    return locker;
  };

  const iterateArgs = (session: string, action: string, extra: string[] = []): string[] => [
    'iterate',
    '--session',
    session,
    '--outcome',
    'continue',
    '--action',
    action,
    '--root',
    tempRoot('shared'),
    '--store',
    db.url,
    ...extra,
  ];

  const seqOf = (session: string) =>
    one<string>(`SELECT seq::text AS v FROM loop_ledger_sessions WHERE project = 'shared' AND session = $1`, [
      session,
    ]);

  it('the server restarted while writers are inside their transactions: each iteration exactly once', async () => {
    open('restart');
    const env = { LOOP_LEDGER_STORE_RETRY_MS: '60000' };
    const actions = Array.from({ length: 12 }, (_, i) => `r${i}`);
    const locker = await holdRecordInserts();
    const runs = actions.map((action) => cliAsync(iterateArgs('restart', action), env).done);
    // Every writer is mid-transaction: one holds the row, the others queue for it.
    await waitFor<number>(WAITING, (v) => v === actions.length);
    const holder = await waitFor<number>(ROW_HOLDER, (v) => v !== undefined);
    assert.ok(holder > 0);
    db.cluster.stopServer();
    try {
      await locker.end().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    } finally {
      // The cluster is the other files' too.
      db.cluster.startServer();
    }
    const results = await Promise.all(runs);
    results.forEach((r) => assert.equal(r.code, 0, r.stderr));
    assertGaplessOnce(await rows('restart'), actions);
  });

  it('a writer’s connection cut while it holds the session row: its transaction rolls back, its retry lands once', async () => {
    open('cut');
    const env = { LOOP_LEDGER_STORE_RETRY_MS: '60000' };
    const seq = await seqOf('cut');
    const locker = await holdRecordInserts();
    try {
      const first = cliAsync(iterateArgs('cut', 'c1'), env);
      const holder = await waitFor<number>(ROW_HOLDER, (v) => v !== undefined);
      const second = cliAsync(iterateArgs('cut', 'c2'), env);
      await waitFor<number>(WAITING, (v) => v === 2);
      assert.equal(await one<boolean>('SELECT pg_terminate_backend($1) AS v', [holder]), true);
      // Another transaction holds the row now (the second writer, or the first one's retry), and
      // nothing of the cut one was kept: the session's committed seq has not moved.
      await waitFor<number>(ROW_HOLDER, (v) => v !== undefined && v !== holder);
      assert.equal(await seqOf('cut'), seq);
      await locker.query('COMMIT');
      const results = await Promise.all([first.done, second.done]);
      results.forEach((r) => assert.equal(r.code, 0, r.stderr));
    } finally {
      await locker.end().catch(() => undefined);
    }
    assertGaplessOnce(await rows('cut'), ['c1', 'c2']);
    assert.equal(Number(await seqOf('cut')), Number(seq) + 2);
  });

  it('a client SIGKILLed after the server committed and before the reply: the retry reports it, written once', async () => {
    open('commitkill');
    // The test's own slow commit: a deferred trigger that sleeps at COMMIT, only for this session.
    const setup = await connect();
    await setup.query(`CREATE FUNCTION test_slow_commit() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN PERFORM pg_sleep(2); RETURN NULL; END $$`);
    await setup.query(`CREATE CONSTRAINT TRIGGER test_slow_commit AFTER INSERT ON loop_ledger_iterations
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.session = 'commitkill')
      EXECUTE FUNCTION test_slow_commit()`);
    try {
      const args = [...iterateArgs('commitkill', 'ck'), '--request-id', 'req-ck', '--json'];
      const killed = cliAsync(args);
      // The client has sent COMMIT and waits for its reply.
      await waitFor<number>(
        `SELECT count(*)::int AS v FROM pg_stat_activity
         WHERE application_name = 'loop-ledger' AND query = 'COMMIT' AND wait_event = 'PgSleep'`,
        (v) => v === 1,
      );
      killed.kill();
      const gone = await killed.done;
      assert.equal(gone.code, null, 'killed by the signal');
      assert.equal(gone.stdout, '', 'no reply reached the client');
      // The commit completes without the client.
      const committed = await waitFor<number>(
        `SELECT count(*)::int AS v FROM loop_ledger_iterations WHERE project = 'shared' AND session = 'commitkill'`,
        (v) => v === 1,
      );
      assert.equal(committed, 1);
    } finally {
      await setup.query('DROP TRIGGER test_slow_commit ON loop_ledger_iterations');
      await setup.query('DROP FUNCTION test_slow_commit()');
      await setup.end();
    }
    const retry = cli([...iterateArgs('commitkill', 'ck'), '--request-id', 'req-ck', '--json']);
    assert.equal(retry.code, 0, retry.stderr);
    assert.equal(retry.json.n, 1);
    assert.deepEqual(retry.json.actions, ['ck']);
    const bare = cli(iterateArgs('commitkill', 'ck'));
    assert.equal(bare.code, 5, 'without the request id the action id is refused as done');
    assertGaplessOnce(await rows('commitkill'), ['ck']);
  });

  it('a client SIGKILLed mid-write and retried with its request id: exactly once, reported done', async () => {
    open('killed');
    const root = tempRoot('shared');
    const actions: string[] = [];
    for (let k = 0; k < 6; k += 1) {
      const action = `k${k}`;
      actions.push(action);
      const args = [
        'iterate',
        '--session',
        'killed',
        '--outcome',
        'continue',
        '--action',
        action,
        '--request-id',
        `req-${k}`,
        '--root',
        root,
        '--store',
        db.url,
        '--json',
      ];
      const first = cliAsync(args);
      await new Promise((resolve) => setTimeout(resolve, 40 + k * 60));
      first.kill();
      await first.done;
      const retry = cli(args);
      assert.equal(retry.code, 0, `${action}: ${retry.stderr}`);
      assert.deepEqual(retry.json.actions, [action]);
    }
    // A write whose commit happened but whose reply was lost: the retry reports it, not twice.
    const args = [
      'iterate',
      '--session',
      'killed',
      '--outcome',
      'continue',
      '--action',
      'once',
      '--request-id',
      'req-once',
      '--root',
      root,
      '--store',
      db.url,
      '--json',
    ];
    const done = cli(args);
    const again = cli(args);
    assert.equal(done.code, 0, done.stderr);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(again.json, done.json);
    // Without the request id the action id still refuses a second record.
    const bare = cli(args.filter((a) => a !== '--request-id' && a !== 'req-once'));
    assert.equal(bare.code, 5);
    assertGaplessOnce(await rows('killed'), [...actions, 'once']);
  });
});
