// Throwaway PostgreSQL clusters for the tests: initdb + pg_ctl in a temporary folder, on a free
// TCP port on 127.0.0.1 and a unix socket in that folder, stopped and removed after. As root (CI,
// this machine) the server runs as the `postgres` user, which PostgreSQL requires.
//
// Starting a cluster costs seconds (initdb writes a whole data folder), so the test files share
// one per mocha process (`withStoreDatabase`), started on first use and removed when the process
// exits; each file gets fresh databases of its own on it, so files stay independent. Only a file
// that needs a server set up differently (TLS) starts its own (`startCluster`).
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

export interface PgCluster {
  /** A connection string for the `postgres` superuser over TCP (trust authentication). */
  url: string;
  host: string;
  port: number;
  /** Stops the server (fast shutdown: open connections are cut). */
  stopServer(): void;
  startServer(): void;
  isRunning(): boolean;
  /** Stops the server and removes the folder. */
  destroy(): void;
  /** With `tls`: the server's self-signed certificate (for 127.0.0.1), to pass as sslrootcert. */
  certificate?: string;
}

/** The newest installed PostgreSQL's binaries folder (Debian: /usr/lib/postgresql/N/bin). */
function binDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => /^\d+$/.test(v) && existsSync(join(base, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error(
      'PostgreSQL is not installed (no /usr/lib/postgresql/N/bin/initdb): run scripts/setup.sh',
    );
  return join(base, versions[0] as string, 'bin');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** `tls`: the server also speaks TLS, with a fresh self-signed certificate for 127.0.0.1. */
export async function startCluster(options: { tls?: boolean } = {}): Promise<PgCluster> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'loop-ledger-pg-'));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
      }
    : null;
  if (owner !== null) chownSync(dir, owner.uid, owner.gid);
  let tlsOptions = '';
  let certificate: string | undefined;
  if (options.tls === true) {
    certificate = join(dir, 'server.crt');
    const key = join(dir, 'server.key');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-keyout',
        key,
        '-out',
        certificate,
      ].concat(['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1']),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // The server refuses a key others can read.
    chmodSync(key, 0o600);
    if (owner !== null) for (const f of [key, certificate]) chownSync(f, owner.uid, owner.gid);
    tlsOptions = ` -c ssl=on -c ssl_cert_file=${certificate} -c ssl_key_file=${key}`;
  }
  const run = (tool: string, args: string[]): void => {
    const command = asRoot ? 'runuser' : join(bin, tool);
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
    execFileSync(command, argv, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  };
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--locale=C']);
  const port = await freePort();
  const serverOptions = `-p ${port} -k ${dir} -h 127.0.0.1 -c fsync=off -c max_connections=200${tlsOptions}`;
  const startServer = (): void =>
    run('pg_ctl', [
      '-D',
      data,
      '-o',
      serverOptions,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      'start',
    ]);
  const stopServer = (): void => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  const isRunning = (): boolean => {
    try {
      run('pg_ctl', ['-D', data, 'status']);
      return true;
    } catch {
      return false; // exit 3: no server running
    }
  };
  startServer();
  return {
    isRunning,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    host: '127.0.0.1',
    port,
    startServer,
    stopServer,
    ...(certificate !== undefined ? { certificate } : {}),
    destroy: () => {
      try {
        stopServer();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh, empty database on the shared cluster, for one test file. */
export interface StoreDatabase {
  /** A connection string for the `postgres` superuser over TCP to this database. */
  url: string;
  host: string;
  port: number;
  /** The database's name: the CLI's messages name a store `host:port/name`. */
  name: string;
  /** Shared with the other files: a test that stops the server starts it again in a `finally`. */
  cluster: PgCluster;
}

// Each test file is bundled on its own (its own copy of this module), so the one cluster of the
// process is kept on the global object, where every file's copy finds it.
const SHARED = Symbol.for('loop-ledger.test.shared-pg-cluster');
type Shared = { cluster: Promise<PgCluster>; databases: number };
const holder = globalThis as { [SHARED]?: Shared };

function sharedCluster(): Shared {
  let shared = holder[SHARED];
  if (shared === undefined) {
    const cluster = startCluster();
    shared = { cluster, databases: 0 };
    holder[SHARED] = shared;
    // destroy() is synchronous (pg_ctl stop -w, then rm), so it can run in 'exit'.
    cluster.then(
      (c) => process.once('exit', () => c.destroy()),
      () => undefined,
    );
  }
  return shared;
}

/** Creates a database named after `label` (unique in the process) on the shared cluster. */
export async function createStoreDatabase(label: string): Promise<StoreDatabase> {
  const shared = sharedCluster();
  const cluster = await shared.cluster;
  // A file that failed between stopping the server and starting it must not fail the next.
  if (!cluster.isRunning()) cluster.startServer();
  shared.databases += 1;
  const name = `${label.toLowerCase().replace(/[^a-z0-9]+/g, '_')}_${shared.databases}`;
  const client = new Client(cluster.url);
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return {
    url: cluster.url.replace(/\/postgres$/, `/${name}`),
    host: cluster.host,
    port: cluster.port,
    name,
    cluster,
  };
}

/**
 * The test file's database, filled in by a `before` hook this registers (so declare it at the top
 * of the file's `describe`, before hooks that use it). Left on the cluster at the end: the
 * cluster goes when the process exits.
 */
export function withStoreDatabase(label: string): StoreDatabase {
  const database = {} as StoreDatabase;
  before(async function () {
    this.timeout(180_000);
    Object.assign(database, await createStoreDatabase(label));
  });
  return database;
}
