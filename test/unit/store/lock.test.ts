import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  lutimesSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { LockBusyError, withLock } from '../../../src/store/lock';
import { useTempDir } from './fixtures/temp-dir';

const WORKER = join(__dirname, 'fixtures', 'lock-worker.js');

function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

/** The pid of a process that has certainly exited (and been reaped). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { env: childEnv(), stdio: 'ignore' });
  const pid = child.pid;
  assert.ok(pid !== undefined);
  assert.equal(await exited(child), 0);
  return pid;
}

function writeLock(ledger: string, holder: object | string, ageMs = 0): void {
  const lock = `${ledger}.lock`;
  writeFileSync(lock, typeof holder === 'string' ? holder : JSON.stringify(holder));
  if (ageMs > 0) {
    const then = new Date(Date.now() - ageMs);
    utimesSync(lock, then, then);
  }
}

describe('store: lock', () => {
  const tmp = useTempDir();

  it('runs the function under a lock file and removes it afterwards', () => {
    const ledger = join(tmp(), 'nested', 's.json');
    const seen = withLock(ledger, () => JSON.parse(readFileSync(`${ledger}.lock`, 'utf8')));
    assert.equal(seen.pid, process.pid);
    assert.equal(seen.hostname, hostname());
    assert.ok(!Number.isNaN(Date.parse(seen.acquired_at)));
    assert.ok(!existsSync(`${ledger}.lock`));
  });

  it('releases the lock when the function throws', () => {
    const ledger = join(tmp(), 's.json');
    assert.throws(() => withLock(ledger, () => assert.fail('boom')), /boom/);
    assert.deepEqual(readdirSync(tmp()), []);
  });

  it('is exclusive: a live holder makes the next caller wait, then report busy', () => {
    const ledger = join(tmp(), 's.json');
    withLock(ledger, () => {
      const started = Date.now();
      assert.throws(
        () => withLock(ledger, () => assert.fail('must not run'), { waitMs: 150 }),
        (error: unknown) => {
          assert.ok(error instanceof LockBusyError);
          assert.match(error.message, new RegExp(`s\\.json is busy: locked by pid ${process.pid}`));
          assert.equal(error.holder?.pid, process.pid);
          return true;
        },
      );
      const waited = Date.now() - started;
      assert.ok(waited >= 140 && waited < 1000, `waited ${waited} ms`);
    });
  });

  it('breaks a lock whose holder pid is dead at once', async () => {
    const ledger = join(tmp(), 's.json');
    writeLock(ledger, { pid: await deadPid(), hostname: hostname(), acquired_at: new Date().toISOString() });
    assert.equal(
      withLock(ledger, () => 'ran', { waitMs: 0 }),
      'ran',
    );
    assert.ok(!existsSync(`${ledger}.lock`));
  });

  it('waits for a fresh lock from another host, breaks it once stale', () => {
    const ledger = join(tmp(), 's.json');
    const holder = { pid: 1, hostname: 'some-other-host', acquired_at: new Date().toISOString() };
    writeLock(ledger, holder);
    assert.throws(() => withLock(ledger, () => 0, { waitMs: 20 }), LockBusyError);
    writeLock(ledger, holder, 31_000);
    assert.equal(
      withLock(ledger, () => 'ran', { waitMs: 0 }),
      'ran',
    );
  });

  it('gives an unreadable lock a second, then breaks it', () => {
    const ledger = join(tmp(), 's.json');
    writeLock(ledger, '');
    assert.throws(
      () => withLock(ledger, () => 0, { waitMs: 20 }),
      /locked by a process that has not written its pid yet/,
    );
    writeLock(ledger, '{"pid":', 2_000);
    assert.equal(
      withLock(ledger, () => 'ran', { waitMs: 0 }),
      'ran',
    );
  });

  it('clears a break guard left by a killed breaker', async () => {
    const ledger = join(tmp(), 's.json');
    writeLock(ledger, { pid: await deadPid(), hostname: hostname(), acquired_at: new Date().toISOString() });
    writeFileSync(`${ledger}.lock.break`, '');
    const old = new Date(Date.now() - 5_000);
    utimesSync(`${ledger}.lock.break`, old, old);
    assert.equal(
      withLock(ledger, () => 'ran', { waitMs: 500 }),
      'ran',
    );
    assert.deepEqual(readdirSync(tmp()), []);
  });

  it("clears a dangling symlink left as a break guard beside a dead holder's lock", async () => {
    const ledger = join(tmp(), 's.json');
    writeLock(ledger, { pid: await deadPid(), hostname: hostname(), acquired_at: new Date().toISOString() });
    symlinkSync(join(tmp(), 'nowhere'), `${ledger}.lock.break`);
    const old = new Date(Date.now() - 5_000);
    lutimesSync(`${ledger}.lock.break`, old, old);
    assert.equal(
      withLock(ledger, () => 'ran', { waitMs: 500 }),
      'ran',
    );
    assert.deepEqual(readdirSync(tmp()), []);
  });

  it('with waitMs 0 makes one attempt: a live holder means busy at once', () => {
    const ledger = join(tmp(), 's.json');
    writeLock(ledger, { pid: process.pid, hostname: hostname(), acquired_at: new Date().toISOString() });
    const started = Date.now();
    assert.throws(() => withLock(ledger, () => 'ran', { waitMs: 0 }), LockBusyError);
    assert.ok(Date.now() - started < 1000);
  });

  it('does not delete a lock that is no longer its own', () => {
    const ledger = join(tmp(), 's.json');
    const other = JSON.stringify({
      pid: 424242,
      hostname: 'elsewhere',
      acquired_at: '2025-01-01T00:00:00.000Z',
    });
    withLock(ledger, () => {
      // As if we had been judged stale and someone else now holds the ledger.
      writeFileSync(`${ledger}.lock`, other);
    });
    assert.equal(readFileSync(`${ledger}.lock`, 'utf8'), other);
  });

  it('breaks the lock of a holder killed with SIGKILL at once', async function () {
    this.timeout(20_000);
    const ledger = join(tmp(), 's.json');
    const child = spawn(process.execPath, [WORKER, 'hold', ledger], {
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const done = exited(child);
    await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
    assert.throws(() => withLock(ledger, () => 0, { waitMs: 30 }), LockBusyError);
    child.kill('SIGKILL');
    await done;
    const started = Date.now();
    assert.equal(
      withLock(ledger, () => 'ran', { waitMs: 0 }),
      'ran',
    );
    assert.ok(Date.now() - started < 100);
  });

  it('8 processes x 25 locked increments lose no update', async function () {
    this.timeout(60_000);
    const counter = join(tmp(), 'counter.json');
    writeFileSync(counter, '0\n');
    const children = Array.from({ length: 8 }, () =>
      spawn(process.execPath, [WORKER, 'count', counter, '25'], {
        env: childEnv(),
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    );
    const codes = await Promise.all(children.map(exited));
    assert.deepEqual(codes, Array(8).fill(0));
    assert.equal(readFileSync(counter, 'utf8'), '200\n');
    assert.deepEqual(readdirSync(tmp()), ['counter.json']);
  });
});
