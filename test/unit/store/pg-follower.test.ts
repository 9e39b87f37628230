// The LISTEN follower against a real throwaway cluster, with the CLI as the writer in another
// process: a write wakes it, writes made while its connection was gone (terminated by the server,
// or the server restarted) are caught up from the sessions' sequence numbers after it reconnects,
// and no state it reports ever carries the password.
import { strict as assert } from 'node:assert';
import { Client } from 'pg';
import { FOLLOW_CHANNEL, StoreFollower, type FollowerStatus } from '../../../src/store/pg/follower';
import { NOTIFY_CHANNEL } from '../../../src/app/ledger/pg-store';
import { openLiveStore } from '../../../src/app/ledger/pg-live';
import { withStoreDatabase } from '../helpers/pg-cluster';
import { cli, cliAsync, CONTRACT, tempRoot } from '../helpers/pg-cli';

describe('PostgreSQL follower (LISTEN)', function () {
  this.timeout(120_000);
  const db = withStoreDatabase('pg_follower');
  let root: string;
  const project = 'follow';
  const followers: StoreFollower[] = [];

  const store = (args: string[]) => {
    const r = cli([...args, '--root', root, '--store', db.url, '--project', project]);
    assert.equal(r.code, 0, r.stderr);
    return r;
  };
  const sql = async (text: string, params: unknown[] = []) => {
    const client = new Client(db.url);
    await client.connect();
    try {
      return await client.query(text, params);
    } finally {
      await client.end();
    }
  };
  const follow = (options: { firstRetryMs?: number; maxRetryMs?: number } = {}) => {
    const follower = new StoreFollower({ url: db.url, project, ...options });
    followers.push(follower);
    return follower;
  };
  /** Resolves with the first value `subscribe` reports that `accept` takes. */
  const next = <T>(
    subscribe: (listener: (value: T) => void) => () => void,
    accept: (value: T) => boolean,
    ms = 15_000,
  ): Promise<T> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`nothing reported within ${ms} ms`));
      }, ms);
      const off = subscribe((value) => {
        if (!accept(value)) return;
        clearTimeout(timer);
        off();
        resolve(value);
      });
    });
  const state = (follower: StoreFollower, wanted: FollowerStatus['state']) =>
    follower.status.state === wanted
      ? Promise.resolve(follower.status)
      : next<FollowerStatus>(
          (l) => follower.onState(l),
          (s) => s.state === wanted,
        );
  const changed = (follower: StoreFollower, session: string) =>
    next<string[]>(
      (l) => follower.onChanged(l),
      (sessions) => sessions.includes(session),
    );

  before(async () => {
    root = tempRoot(project);
    store(['store', 'migrate']);
    store(['open', '--session', 's1', '--contract', CONTRACT]);
    store(['open', '--session', 's2', '--contract', CONTRACT]);
  });
  afterEach(async () => {
    await Promise.all(followers.splice(0).map((f) => f.close()));
  });

  it('listens on the channel the writers notify', () => {
    assert.equal(FOLLOW_CHANNEL, NOTIFY_CHANNEL);
  });

  it('a write by another process wakes it, naming only the session written', async () => {
    const follower = follow();
    // Seeded from a reader's snapshot, as the extension does: the first look reports nothing old.
    const live = openLiveStore({ url: db.url, project, retryMs: 2000 });
    try {
      for (const s of await live.readAll()) follower.seen(s.session, s.seq);
    } finally {
      await live.close();
    }
    const reported: string[][] = [];
    follower.onChanged((sessions) => reported.push(sessions));
    follower.start();
    await state(follower, 'connected');
    assert.equal(reported.length, 0, 'nothing changed since the snapshot');
    const before = follower.seqOf('s1');
    const woke = changed(follower, 's1');
    const writer = cliAsync([
      'iterate',
      '--session',
      's1',
      '--outcome',
      'continue',
      '--root',
      root,
      '--store',
      db.url,
      '--project',
      project,
    ]);
    assert.equal((await writer.done).code, 0);
    assert.deepEqual(await woke, ['s1']);
    assert.equal(follower.seqOf('s1'), before + 1);
    assert.ok(!reported.flat().includes('s2'), 's2 was not written');
  });

  it('ignores other projects and notifications it has already caught up with', async () => {
    const follower = follow();
    const reported: string[][] = [];
    follower.onChanged((sessions) => reported.push(sessions));
    follower.start();
    await state(follower, 'connected');
    assert.deepEqual(reported.flat().sort(), ['s1', 's2'], 'an unseeded follower reports every session once');
    reported.length = 0;
    await sql('SELECT pg_notify($1, $2)', [
      NOTIFY_CHANNEL,
      JSON.stringify({ project: 'other', session: 's1', seq: 99 }),
    ]);
    // A stale wake-up for a seq already seen, then a real write: only the write is reported.
    await sql('SELECT pg_notify($1, $2)', [
      NOTIFY_CHANNEL,
      JSON.stringify({ project, session: 's2', seq: 1 }),
    ]);
    const woke = changed(follower, 's2');
    store(['iterate', '--session', 's2', '--outcome', 'continue']);
    await woke;
    assert.deepEqual(reported, [['s2']]);
  });

  it('catches up after its connection is terminated (pg_terminate_backend), from the sequence numbers', async () => {
    const follower = follow({ firstRetryMs: 1500, maxRetryMs: 1500 });
    follower.start();
    await state(follower, 'connected');
    const seq = follower.seqOf('s1');
    const down = state(follower, 'disconnected');
    const killed = await sql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'loop-ledger-follow'",
    );
    assert.equal(killed.rowCount, 1);
    const status = await down;
    assert.ok(status.retryInMs !== undefined && status.retryInMs > 0);
    // Written while the follower has no connection: its notification reaches nobody.
    const caught = changed(follower, 's1');
    await sql("UPDATE loop_ledger_sessions SET seq = seq + 1 WHERE project = $1 AND session = 's1'", [
      project,
    ]);
    assert.equal(follower.status.state, 'disconnected', 'the write happened while it was down');
    assert.deepEqual(await caught, ['s1']);
    assert.equal(follower.seqOf('s1'), seq + 1);
    await state(follower, 'connected');
  });

  it('survives a server restart: disconnected while it is down, then reconnects and catches up', async () => {
    const follower = follow({ firstRetryMs: 200, maxRetryMs: 1000 });
    follower.start();
    await state(follower, 'connected');
    const seq = follower.seqOf('s2');
    const down = state(follower, 'disconnected');
    db.cluster.stopServer();
    try {
      const status = await down;
      assert.equal(status.store, `127.0.0.1:${db.port}/${db.name}`);
      // Still down after several attempts: it keeps saying so (and keeps trying), never
      // flickering back to "connecting" for an attempt.
      const seen: string[] = [];
      const unsubscribe = follower.onState((s) => seen.push(s.state));
      await new Promise((r) => setTimeout(r, 1500));
      unsubscribe();
      assert.equal(follower.status.state, 'disconnected');
      assert.ok(seen.length >= 2, `retries announced: ${seen.join(', ')}`);
      assert.deepEqual([...new Set(seen)], ['disconnected']);
    } finally {
      db.cluster.startServer();
    }
    const caught = changed(follower, 's2');
    store(['iterate', '--session', 's2', '--outcome', 'continue']);
    await caught;
    assert.equal(follower.seqOf('s2'), seq + 1);
    await state(follower, 'connected');
  });

  it('never reports the password: not in a reason, not in a state', async () => {
    // A password that is also a word of the driver's message proves the redaction, not luck.
    for (const secret of ['s3cr3t-pw', 'refused']) {
      const follower = new StoreFollower({
        url: `postgres://ledger:${secret}@127.0.0.1:1/ledgers`,
        project,
        firstRetryMs: 50,
        maxRetryMs: 50,
      });
      followers.push(follower);
      const seen: FollowerStatus[] = [];
      follower.onState((s) => seen.push(s));
      follower.start();
      const status = await state(follower, 'disconnected');
      assert.equal(status.store, '127.0.0.1:1/ledgers');
      assert.ok(status.reason && status.reason.length > 0);
      await new Promise((r) => setTimeout(r, 300));
      const text = JSON.stringify(seen);
      assert.ok(!text.includes(secret), text);
    }
    // The reader's errors too.
    const live = openLiveStore({
      url: 'postgres://ledger:s3cr3t-pw@127.0.0.1:1/ledgers',
      project,
      retryMs: 0,
    });
    try {
      await assert.rejects(live.readAll(), (error: Error) => {
        assert.match(error.message, /127\.0\.0\.1:1\/ledgers/);
        assert.ok(!error.message.includes('s3cr3t-pw'), error.message);
        return true;
      });
    } finally {
      await live.close();
    }
  });

  it('the reader gives every session with its ledger and sequence number, in the file store order', async () => {
    const live = openLiveStore({ url: db.url, project, retryMs: 2000 });
    try {
      const all = await live.readAll();
      assert.deepEqual(
        all.map((s) => s.session),
        ['s1', 's2'],
      );
      const s2 = await live.readOne('s2');
      assert.equal(s2?.ledger.session, 's2');
      assert.equal(s2?.ledger.iterations.length, 2);
      assert.ok((s2?.seq ?? 0) >= 3);
      assert.equal(await live.readOne('nope'), undefined);
    } finally {
      await live.close();
    }
  });
});
