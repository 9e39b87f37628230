// The store's one lock primitive, as the work-order run lock and the repeat claim use it: 16
// processes race for a lock left stale (dead pid, a reused pid, half-written and abandoned) and
// never hold it two at a time; a live holder, or a half-written lock whose creator is still
// writing, is never broken.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { childEnv, tempRoot } from '../helpers/cli';

const WORKER = join(__dirname, 'fixtures', 'keyed-lock-worker.js');
const RACERS = 16;

type Use = 'run-lock' | 'repeat';

function lockPathOf(use: Use, target: string): string {
  return use === 'run-lock' ? join(target, '.wo-run.lock') : join(target, '.loop', 'repeat', 's.owner');
}

function targetFor(use: Use): string {
  const target = tempRoot(`keyed-${use}-`);
  if (use === 'repeat') mkdirSync(join(target, '.loop', 'repeat'), { recursive: true });
  return target;
}

function runWorker(use: Use, target: string, go: string, inside: string, holdMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, use, target, go, inside, String(holdMs)], {
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`worker exited ${code}: ${out}`));
      else resolve(out.trim());
    });
  });
}

async function race(use: Use, target: string, holdMs = 15, atStart?: () => void): Promise<string[]> {
  // Fresh per race: a start file left by an earlier race would let these racers go at once.
  const signals = tempRoot('keyed-race-');
  const go = join(signals, 'go');
  const inside = join(signals, 'inside');
  const runs = Array.from({ length: RACERS }, () => runWorker(use, target, go, inside, holdMs));
  await new Promise((r) => setTimeout(r, 300)); // let the racers load before the start
  atStart?.();
  writeFileSync(go, '');
  return Promise.all(runs);
}

function aged(path: string, content: string, ageMs: number): void {
  writeFileSync(path, content);
  const then = new Date(Date.now() - ageMs);
  utimesSync(path, then, then);
}

const STALE_SEEDS: Record<string, string> = {
  'a dead pid': JSON.stringify({
    pid: 999_999_999,
    hostname: hostname(),
    acquired_at: '2026-01-01T00:00:00Z',
  }),
  // pid 1 is alive, but it was started at another time than the lock says: a reused pid.
  'a live pid reused by another program': JSON.stringify({
    pid: 1,
    hostname: hostname(),
    acquired_at: '2026-01-01T00:00:00Z',
    pid_started: '999999999999',
  }),
  'an empty lock left by a creator killed before it wrote': '',
  'a half-written lock left by a killed creator': '{"pid": 12',
};

for (const use of ['run-lock', 'repeat'] as const) {
  describe(`store: the keyed lock as the ${use === 'run-lock' ? 'work-order run lock' : 'repeat claim'}`, function () {
    this.timeout(180_000);

    for (const [name, content] of Object.entries(STALE_SEEDS)) {
      it(`${RACERS} processes race over ${name}: it is taken over, never held twice`, async () => {
        const target = targetFor(use);
        aged(lockPathOf(use, target), content, 10_000);
        const results = await race(use, target);
        assert.ok(!results.includes('double'), `two holders at once: ${results.join(' ')}`);
        assert.ok(results.filter((r) => r === 'held').length >= 1, results.join(' '));
        assert.ok(
          results.every((r) => r === 'held' || r === 'busy'),
          results.join(' '),
        );
        assert.equal(existsSync(lockPathOf(use, target)), false, 'the last holder released it');
      });
    }

    it(`${RACERS} processes race over a live holder's lock, and a lock being written: none takes it, none deletes it`, async () => {
      const target = targetFor(use);
      const live = JSON.stringify({
        pid: process.pid,
        hostname: hostname(),
        acquired_at: new Date().toISOString(),
      });
      writeFileSync(lockPathOf(use, target), live);
      let results = await race(use, target);
      assert.deepEqual(new Set(results), new Set(['busy']));
      assert.equal(existsSync(lockPathOf(use, target)), true);
      // Created and not yet written when the racers arrive; its creator (here, this test) writes
      // it a moment later. Read as "pid 0" it used to be deleted under its live creator.
      const fresh = targetFor(use);
      const path = lockPathOf(use, fresh);
      let written: Promise<void> = Promise.resolve();
      results = await race(use, fresh, 0, () => {
        writeFileSync(path, '');
        written = new Promise((r) => setTimeout(r, 100)).then(() => writeFileSync(path, live));
      });
      await written;
      assert.deepEqual(new Set(results), new Set(['busy']));
      assert.equal(readFileSync(path, 'utf8'), live, 'the live lock was left in place');
    });
  });
}
