// sslmode in the store's connection string, through the real CLI against real servers: one
// without TLS (a mode asking for TLS fails at once, in one line naming the host and never the
// password, exit 74, nothing written) and one with TLS and a self-signed certificate (the modes
// that verify refuse it unless sslrootcert names it; `disable` and `no-verify` connect).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { startCluster, withStoreDatabase, type PgCluster } from '../helpers/pg-cluster';
import { cli, CONTRACT, tempRoot } from '../helpers/pg-cli';

const SECRET = 'n0t-4-pr1nt';

/** A database on a server: `url` connects as the superuser without a password. */
type Target = { url: string; port: number; name: string };

function withMode(target: Target, query: string): string {
  return `postgres://postgres:${SECRET}@127.0.0.1:${target.port}/${target.name}?${query}`;
}

async function sessionCount(target: Target): Promise<number> {
  const client = new Client(target.url);
  await client.connect();
  try {
    const r = await client.query<{ c: number }>('SELECT count(*)::int AS c FROM loop_ledger_sessions');
    return r.rows[0]?.c ?? -1;
  } finally {
    await client.end();
  }
}

function assertRefusedInOneLine(r: ReturnType<typeof cli>, target: Target, reason: RegExp): void {
  assert.equal(r.code, 74, r.stderr);
  assert.equal(r.stdout, '');
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line, no driver warning: ${r.stderr}`);
  assert.match(
    lines[0] as string,
    new RegExp(`cannot reach the PostgreSQL ledger store at 127\\.0\\.0\\.1:${target.port}/${target.name}: `),
  );
  assert.match(lines[0] as string, reason);
  assert.ok(!r.stderr.includes(SECRET), 'the password is never printed');
}

describe('PostgreSQL store: sslmode', function () {
  this.timeout(300_000);

  describe('a server without TLS', () => {
    const db = withStoreDatabase('pg_sslmode');
    before(() => {
      const migrated = cli(['store', 'migrate', '--root', tempRoot('m'), '--store', db.url]);
      assert.equal(migrated.code, 0, migrated.stderr);
    });

    // The driver treats prefer, require and verify-ca as verify-full: TLS or nothing.
    for (const mode of ['require', 'prefer', 'verify-ca', 'verify-full', 'no-verify']) {
      it(`sslmode=${mode}: exit 74 at once, one line naming the host, nothing written`, async () => {
        const root = tempRoot('ssl');
        const url = withMode(db, `sslmode=${mode}`);
        for (const args of [
          ['open', '--session', 's1', '--contract', CONTRACT, '--store', url],
          ['iterate', '--session', 's1', '--outcome', 'continue', '--store', url, '--json'],
          ['status', '--session', 's1', '--json'],
        ]) {
          // The third reads the URL from the environment, as an agent's shell would set it.
          const env: Record<string, string> = args.includes('--store') ? {} : { LOOP_LEDGER_STORE: url };
          // A retry window far longer than a command takes even on a loaded machine: a refusal that
          // were retried would last all of it.
          const started = Date.now();
          const r = cli([...args, '--root', root], { ...env, LOOP_LEDGER_STORE_RETRY_MS: '120000' });
          assert.ok(Date.now() - started < 60_000, 'not retried for the whole retry window');
          assertRefusedInOneLine(r, db, /the server does not support SSL connections/);
        }
        assert.equal(await sessionCount(db), 0);
        assert.equal(existsSync(join(root, '.loop')), false, 'nothing written to the files either');
      });
    }

    it('sslmode=disable connects in plain text: open, iterate and status work', async () => {
      const root = tempRoot('plain');
      const url = `${db.url}?sslmode=disable`;
      assert.equal(
        cli(['open', '--session', 'p1', '--contract', CONTRACT, '--root', root, '--store', url]).code,
        0,
      );
      const it1 = cli([
        'iterate',
        '--session',
        'p1',
        '--outcome',
        'continue',
        '--root',
        root,
        '--store',
        url,
      ]);
      assert.equal(it1.code, 0, it1.stderr);
      const status = cli(['status', '--session', 'p1', '--root', root, '--json'], { LOOP_LEDGER_STORE: url });
      assert.equal(status.code, 0, status.stderr);
      assert.equal(status.json.iterations, 1);
      assert.equal(await sessionCount(db), 1);
    });
  });

  describe('a server with TLS and a self-signed certificate', () => {
    // A server of its own: the shared one speaks no TLS.
    let tls: PgCluster;
    let server: Target & { certificate: string | undefined };
    before(async () => {
      tls = await startCluster({ tls: true });
      server = { url: tls.url, port: tls.port, name: 'postgres', certificate: tls.certificate };
    });
    after(() => tls?.destroy());

    it('sslmode=require (verified by this driver) refuses the unknown certificate: exit 74, one line', () => {
      for (const mode of ['require', 'verify-full']) {
        const r = cli([
          'store',
          'migrate',
          '--root',
          tempRoot('tls'),
          '--store',
          withMode(server, `sslmode=${mode}`),
        ]);
        assertRefusedInOneLine(r, server, /TLS certificate was not accepted: self[- ]signed certificate/);
      }
    });

    it('sslmode=verify-full with sslrootcert naming the CA connects and works', async () => {
      const url = withMode(
        server,
        `sslmode=verify-full&sslrootcert=${encodeURIComponent(server.certificate!)}`,
      );
      const root = tempRoot('tls'); // the project is the root folder's name: `tls`
      const migrated = cli(['store', 'migrate', '--root', root, '--store', url, '--json']);
      assert.equal(migrated.code, 0, migrated.stderr);
      const opened = cli(['open', '--session', 't1', '--contract', CONTRACT, '--root', root, '--store', url]);
      assert.equal(opened.code, 0, opened.stderr);
      assert.equal(opened.stderr, '', 'no driver warning');
      assert.equal(await sessionCount(server), 1);
    });

    it('sslmode=no-verify (TLS, certificate unchecked) and sslmode=disable both connect', () => {
      for (const mode of ['no-verify', 'disable']) {
        const url = withMode(server, `sslmode=${mode}`);
        const r = cli(['list', '--root', tempRoot('tls'), '--store', url, '--project', 'tls', '--json']);
        assert.equal(r.code, 0, `${mode}: ${r.stderr}`);
        assert.deepEqual(
          r.json.sessions.map((s: { session: string }) => s.session),
          ['t1'],
        );
      }
    });
  });
});
