// `.wo-run.lock` as a clone can carry it, through `wo run` as a child process: a folder, a FIFO,
// a lock naming a live pid of another program or another host. None hangs; a lock whose holder
// is provably gone is taken over; one that cannot be checked is refused with how to clear it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { makeTask } from './fixture';
import { woRun } from './run-helpers';

const lockOf = (dir: string): string => join(dir, '.wo-run.lock');

describe('wo run: the run lock as a clone can carry it', function () {
  this.timeout(120_000);

  it('an empty folder in its place is removed and the run goes on; one with content is refused (exit 74)', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    mkdirSync(lockOf(t.dir));
    let r = woRun(t);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(lockOf(t.dir)), false);
    const u = makeTask([{ n: 1 }], { git: true });
    mkdirSync(lockOf(u.dir));
    writeFileSync(join(lockOf(u.dir), 'keep'), 'x');
    r = woRun(u);
    assert.equal(r.code, 74, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /\.wo-run\.lock is a folder with content, not a lock file: move it away/);
    assert.doesNotMatch(r.stderr, /pid -1/);
  });

  it('a FIFO in its place never blocks: it is no lock of ours, and the run goes on', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    execFileSync('mkfifo', [lockOf(t.dir)]);
    const r = woRun(t); // spawnSync with a timeout: a hang fails here
    assert.equal(r.code, 0, r.stderr);
  });

  it('a lock naming a live pid (1) of this host that started at another time is taken over', function () {
    if (process.platform !== 'linux') this.skip(); // the process start time comes from /proc
    const t = makeTask([{ n: 1 }], { git: true });
    writeFileSync(
      lockOf(t.dir),
      JSON.stringify({
        pid: 1,
        hostname: hostname(),
        acquired_at: '2026-01-01T00:00:00Z',
        pid_started: '999999999999',
      }),
    );
    const r = woRun(t);
    assert.equal(r.code, 0, r.stderr);
  });

  it('a lock from another host, or an older lock naming a live pid, is refused (exit 3) saying who holds it and how to clear it', () => {
    const t = makeTask([{ n: 1 }], { git: true });
    writeFileSync(
      lockOf(t.dir),
      JSON.stringify({
        pid: 1,
        hostname: 'build-box-7',
        acquired_at: '2026-01-01T00:00:00Z',
        pid_started: '20',
      }),
    );
    let r = woRun(t);
    assert.equal(r.code, 3, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /held by pid 1 on build-box-7 since 2026-01-01T00:00:00Z/);
    assert.ok(r.stderr.includes(`delete ${lockOf(t.dir)}`), r.stderr);
    writeFileSync(lockOf(t.dir), '1\n');
    r = woRun(t);
    assert.equal(r.code, 3, r.stderr);
    assert.match(r.stderr, /pid 1 \(an older lock that names no host\)/);
    assert.ok(r.stderr.includes(`delete ${lockOf(t.dir)}`), r.stderr);
  });
});
