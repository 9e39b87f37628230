// Files a cloned repository can carry, through the CLI as a child process: no write lands outside
// its root or goes through a link, no read hangs on a FIFO or a device or swallows a huge file,
// and each refusal is one line naming the file, exit 2. Every child runs under a timeout, so a
// hang fails the test instead of stalling the suite.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { CLI, childEnv, cliResultOf, tempRoot, type CliResult } from '../helpers/cli';
import { AGENTS, ALLOW, CHECK, sampleRepo } from '../run/helpers';
import { makeTask } from '../wo/fixture';
import { woRun } from '../wo/run-helpers';
import { workspace } from '../repeat/workspace';

/** Fails (instead of hanging) past 20 s: every case here is refused in well under a second. */
function cli(args: string[], cwd?: string): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    env: childEnv(),
    encoding: 'utf8',
    timeout: 20_000,
    killSignal: 'SIGKILL',
  });
  assert.equal(r.error, undefined, `the command hung or failed to start: ${String(r.error)}`);
  return cliResultOf(r);
}

/** `run --objective-file FILE`, with `input` on stdin and `extra` in the environment. */
function objectiveCli(
  file: string,
  cwd: string,
  extra: Record<string, string>,
  input = '',
  agents = AGENTS,
): CliResult {
  const r = spawnSync(
    process.execPath,
    [CLI, 'run', '--objective-file', file, '--agent-config', agents, ...ALLOW, ...CHECK],
    { cwd, env: childEnv(extra), encoding: 'utf8', input, timeout: 20_000, killSignal: 'SIGKILL' },
  );
  assert.equal(r.error, undefined, `the command hung or failed to start: ${String(r.error)}`);
  return cliResultOf(r);
}

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

function oneLineNaming(r: CliResult, name: string): void {
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.ok(lines[0]?.includes(name), `${lines[0]} names ${name}`);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
}

function commitAll(repo: string): void {
  execFileSync('git', ['-C', repo, 'add', '-A']);
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'clone']);
}

describe('reliability: files a repository can carry (confined writes, bounded reads)', function () {
  this.timeout(120_000);

  describe('nothing is written outside the root', () => {
    it('wo obs-append refuses a loop-obs.ndjson that links to a file elsewhere (exit 2, file untouched)', () => {
      const t = makeTask([{ n: 1 }]);
      const elsewhere = join(tempRoot('outside-'), 'victim.txt');
      writeFileSync(elsewhere, 'keep\n');
      symlinkSync(elsewhere, join(t.dir, 'loop-obs.ndjson'));
      const r = cli(['wo', 'obs-append', t.dir, 'wo-01', '--disposition', 'done']);
      assert.equal(r.code, 2, r.stderr);
      oneLineNaming(r, 'loop-obs.ndjson');
      assert.equal(readFileSync(elsewhere, 'utf8'), 'keep\n');
    });

    it('wo run refuses the same link before anything runs', () => {
      const t = makeTask([{ n: 1 }], { git: true });
      const elsewhere = join(tempRoot('outside-'), 'victim.txt');
      writeFileSync(elsewhere, 'keep\n');
      symlinkSync(elsewhere, join(t.dir, 'loop-obs.ndjson'));
      const r = woRun(t);
      assert.equal(r.code, 2, r.stderr);
      oneLineNaming(r, 'loop-obs.ndjson');
      assert.equal(readFileSync(elsewhere, 'utf8'), 'keep\n');
      assert.equal(existsSync(join(t.root, 'agent-calls.log')), false, 'no agent ran');
    });

    it('run refuses a committed .loop/runs link: no run folder and no ledger outside (exit 2)', () => {
      const repo = sampleRepo();
      const outside = tempRoot('outside-runs-');
      mkdirSync(join(repo, '.loop'));
      symlinkSync(outside, join(repo, '.loop', 'runs'));
      commitAll(repo);
      const r = cli(['run', '--objective', 'x', '--agent-config', AGENTS, ...ALLOW, ...CHECK], repo);
      assert.equal(r.code, 2, r.stderr);
      oneLineNaming(r, '.loop/runs');
      assert.deepEqual(readdirSync(outside), []);
      assert.equal(existsSync(join(repo, '.loop', 'ledgers')), false, 'refused before the ledger');
    });

    it('repeat refuses a .loop/repeat folder that links elsewhere, and a state file that is a link (exit 2)', () => {
      const ws = workspace('fs');
      ws.setPlan([{ summary: 'x' }]);
      const outside = tempRoot('outside-repeat-');
      mkdirSync(join(ws.root, '.loop'), { recursive: true });
      symlinkSync(outside, join(ws.root, '.loop', 'repeat'));
      let r = ws.repeat('--spec', ws.step);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /\.loop\/repeat/);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
      assert.deepEqual(readdirSync(outside), []);
      assert.deepEqual(ws.log(), [], 'the step never ran');

      const ws2 = workspace('fs');
      ws2.setPlan([{ summary: 'x' }]);
      const victim = join(tempRoot('outside-state-'), 'state.md');
      writeFileSync(victim, 'keep\n');
      mkdirSync(join(ws2.root, '.loop', 'repeat'), { recursive: true });
      symlinkSync(victim, join(ws2.root, '.loop', 'repeat', `${ws2.session}.md`));
      r = ws2.repeat('--spec', ws2.step);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`${ws2.session}\\.md: is a symbolic link`));
      assert.equal(readFileSync(victim, 'utf8'), 'keep\n');
      // The run marker (the repeat's sidecar) is refused the same way.
      const ws3 = workspace('fs');
      ws3.setPlan([{ summary: 'x' }]);
      mkdirSync(join(ws3.root, '.loop', 'repeat'), { recursive: true });
      symlinkSync(victim, join(ws3.root, '.loop', 'repeat', `${ws3.session}.run.json`));
      r = ws3.repeat('--spec', ws3.step);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /\.run\.json: is a symbolic link/);
      assert.equal(readFileSync(victim, 'utf8'), 'keep\n');
    });
  });

  describe('nothing hangs on a FIFO, a device or a huge file', () => {
    it('run --agent-config and --objective-file naming a FIFO or /dev/zero: exit 2 at once, one line', () => {
      const repo = sampleRepo();
      const fifo = join(tempRoot('fifo-'), 'pipe');
      mkfifo(fifo);
      let r = cli(['run', '--objective', 'x', '--agent-config', fifo, ...ALLOW, ...CHECK], repo);
      assert.equal(r.code, 2, r.stderr);
      oneLineNaming(r, '--agent-config');
      assert.match(r.stderr, /is a FIFO, not a regular file/);
      // The objective is read as the original read it, from any kind of file, but a FIFO nobody
      // writes to is refused once the FIFO wait is over (no wait here) instead of hanging.
      r = objectiveCli(fifo, repo, { LOOP_LEDGER_FIFO_WAIT_MS: '0' });
      assert.equal(r.code, 2, r.stderr);
      oneLineNaming(r, '--objective-file');
      assert.match(r.stderr, /is a FIFO with no writer/);
      r = cli(['run', '--objective', 'x', '--agent-config', '/dev/zero', ...ALLOW, ...CHECK], repo);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /is a device, not a regular file/);
      r = cli(['run', '--objective-file', '/dev/zero', '--agent-config', AGENTS, ...ALLOW, ...CHECK], repo);
      assert.equal(r.code, 2, r.stderr);
      oneLineNaming(r, '--objective-file');
      assert.match(r.stderr, /limit/);
    });

    it('run --objective-file /dev/stdin is read, as the original read it (a pipe is not refused)', () => {
      const repo = sampleRepo();
      // The objective is taken from the pipe; the missing agent config is what is refused next.
      const r = objectiveCli('/dev/stdin', repo, {}, 'fix the parser\n', join(repo, 'no-such-agents.toml'));
      assert.equal(r.code, 2, r.stderr);
      oneLineNaming(r, '--agent-config');
      assert.doesNotMatch(r.stderr, /objective/);
    });

    it('an agent config over the 1 MiB cap is refused before it is parsed (exit 2)', () => {
      const repo = sampleRepo();
      const big = join(tempRoot('big-toml-'), 'agents.toml');
      writeFileSync(big, `# ${'x'.repeat(2 * 1024 * 1024)}\n`);
      const r = cli(['run', '--objective', 'x', '--agent-config', big, ...ALLOW, ...CHECK], repo);
      assert.equal(r.code, 2, r.stderr);
      oneLineNaming(r, '--agent-config');
      assert.match(r.stderr, /over the 1048576-byte limit/);
    });

    it('wo run: agents.toml linked to /dev/zero is refused (exit 2); a FIFO obs log is refused (exit 2)', () => {
      const t = makeTask([{ n: 1 }], { git: true });
      symlinkSync('/dev/zero', join(t.task, 'agents.toml'));
      let r = woRun(t, { builderConfig: null });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /is a device, not a regular file/);
      const u = makeTask([{ n: 1 }], { git: true });
      mkfifo(join(u.dir, 'loop-obs.ndjson'));
      r = woRun(u);
      assert.equal(r.code, 2, r.stderr);
      oneLineNaming(r, 'loop-obs.ndjson');
    });

    it('wo obs-append on a FIFO obs log: exit 2 at once, nothing written', () => {
      const t = makeTask([{ n: 1 }]);
      mkfifo(join(t.dir, 'loop-obs.ndjson'));
      const r = cli(['wo', 'obs-append', t.dir, 'wo-01', '--disposition', 'done']);
      assert.equal(r.code, 2, r.stderr);
      oneLineNaming(r, 'loop-obs.ndjson');
      assert.ok(statSync(join(t.dir, 'loop-obs.ndjson')).isFIFO(), 'left as it was');
    });
  });
});
