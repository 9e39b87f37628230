// A throwaway PostgreSQL cluster for one test file: initdb + pg_ctl in a temporary folder, on a
// free TCP port on 127.0.0.1 and a unix socket in that folder, stopped and removed after. As root
// (CI, this machine) the server runs as the `postgres` user, which PostgreSQL requires.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PgCluster {
  /** A connection string for the `postgres` superuser over TCP (trust authentication). */
  url: string;
  host: string;
  port: number;
  /** Stops the server (fast shutdown: open connections are cut). */
  stopServer(): void;
  startServer(): void;
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
  startServer();
  return {
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
