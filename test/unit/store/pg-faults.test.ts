// The PostgreSQL store under load and faults, as real processes against a real server: many
// "machines" (roots) writing into shared sessions, the server restarted under running writers,
// clients SIGKILLed mid-write and retried. Each iteration lands exactly once, n stays gapless.
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { startCluster, type PgCluster } from '../helpers/pg-cluster';
import { cli, cliAsync, CONTRACT, pooled, tempRoot } from '../helpers/pg-cli';

/**
 * Writers per machine and iterations per writer: scaled down from 200 iterations per writer so
 * the unit tier stays short (each iteration is a CLI process start); the rules under test (one
 * transaction holding the session row) do not change with the count.
 */
const MACHINES = 4;
const WRITERS = 8;
const PER_WRITER = 2;

describe('PostgreSQL ledger store under load and faults', function () {
  this.timeout(300_000);
  let cluster: PgCluster;
  let contract: string;

  before(async () => {
    cluster = await startCluster();
    const root = tempRoot('setup');
    assert.equal(cli(['store', 'migrate', '--root', root, '--store', cluster.url]).code, 0);
    // The fixture's contract, with room for every iteration these tests record.
    const text = JSON.parse(readFileSync(CONTRACT, 'utf8'));
    contract = join(tempRoot('contract'), '..', 'big.loop-contract.json');
    writeFileSync(contract, JSON.stringify({ ...text, iteration_limit: 100000 }));
  });
  after(() => cluster?.destroy());

  const rows = async (session: string): Promise<{ n: number; actions: string[] }[]> => {
    const client = new Client(cluster.url);
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
      cluster.url,
    ]);
    assert.equal(r.code, 0, r.stderr);
  };

  it(`${MACHINES} machines × ${WRITERS} writers × ${PER_WRITER} iterations into shared sessions: none lost, none doubled`, async () => {
    const sessions = ['one', 'two'];
    sessions.forEach(open);
    const roots = Array.from({ length: MACHINES }, () => tempRoot('shared'));
    const tasks: (() => Promise<{ code: number | null; stderr: string }>)[] = [];
    const expected = new Map<string, string[]>(sessions.map((s) => [s, []]));
    for (let i = 0; i < PER_WRITER; i += 1)
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
                cluster.url,
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
            cluster.url,
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

  it('the server restarted under running writers: each iteration exactly once', async () => {
    open('restart');
    const env = { LOOP_LEDGER_STORE_RETRY_MS: '60000' };
    const actions = Array.from({ length: 12 }, (_, i) => `r${i}`);
    const runs = actions.map(
      (action) =>
        cliAsync(
          [
            'iterate',
            '--session',
            'restart',
            '--outcome',
            'continue',
            '--action',
            action,
            '--root',
            tempRoot('shared'),
            '--store',
            cluster.url,
          ],
          env,
        ).done,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    cluster.stopServer();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    cluster.startServer();
    const results = await Promise.all(runs);
    results.forEach((r) => assert.equal(r.code, 0, r.stderr));
    assertGaplessOnce(await rows('restart'), actions);
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
        cluster.url,
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
      cluster.url,
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
