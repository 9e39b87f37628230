// The harness drivers on their own: run-directory writes and process groups.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ArtifactWriteError, RunDirectory } from '../../../src/drivers/run/artifacts';
import { runProcess } from '../../../src/drivers/process/run-process';
import { tempRoot } from '../helpers/cli';

describe('run: drivers', function () {
  this.timeout(20_000);

  it('run files: written whole through a temporary file, never outside, never through a symlink', async () => {
    const repo = tempRoot('rd-');
    const outside = tempRoot('rd-out-');
    mkdirSync(join(repo, '.loop/runs/r1'), { recursive: true });
    const run = new RunDirectory(repo, '.loop/runs/r1');
    await run.write('attempts/01/a.txt', 'hello');
    assert.equal(readFileSync(join(repo, '.loop/runs/r1/attempts/01/a.txt'), 'utf8'), 'hello');
    assert.deepEqual(
      readdirSync(join(repo, '.loop/runs/r1/attempts/01')),
      ['a.txt'],
      'no temporary file left',
    );
    assert.equal(run.repoRelative('attempts/01/a.txt'), '.loop/runs/r1/attempts/01/a.txt');
    await assert.rejects(run.write('../escape.txt', 'x'), ArtifactWriteError);
    symlinkSync(outside, join(repo, '.loop/runs/r1/attempts/02'));
    // The store's confinement refuses it: the folder's real path leads outside the repository.
    await assert.rejects(run.write('attempts/02/x.txt', 'x'), /its folder leads to .* outside the real path/);
    assert.deepEqual(readdirSync(outside), [], 'nothing written outside');
    assert.ok(!existsSync(join(outside, 'x.txt')));
  });

  it('processes: signal deaths are -signum; a cancel ends the whole group; a missing program is a start error', async () => {
    const killed = await runProcess({
      cmd: 'kill -9 $$',
      cwd: '/',
      env: { PATH: process.env.PATH ?? '' },
      input: null,
      timeoutMs: 5000,
    });
    assert.equal(killed.code, -9);
    const controller = new AbortController();
    const started = Date.now();
    const pending = runProcess({
      cmd: 'sleep 30 & sleep 30; wait',
      cwd: '/',
      env: { PATH: process.env.PATH ?? '' },
      input: null,
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 200);
    const cancelled = await pending;
    assert.equal(cancelled.cancelled, true);
    assert.equal(cancelled.code, null);
    assert.ok(Date.now() - started < 5000, 'the group died at SIGTERM');
    const missing = await runProcess({
      cmd: ['/nonexistent/program'],
      cwd: '/',
      env: {},
      input: 'x',
      timeoutMs: 1000,
    });
    assert.match(missing.startError ?? '', /ENOENT/);
    const echoed = await runProcess({
      cmd: ['cat'],
      cwd: '/',
      env: { PATH: process.env.PATH ?? '' },
      input: '{"a":1}',
      timeoutMs: 5000,
    });
    assert.equal(echoed.stdout, '{"a":1}');
    assert.equal(echoed.code, 0);
  });
});
