// Files a cloned repository can carry where ledgers, locks and their folders go (special or huge
// ledgers, odd entries at the lock, file modes, folders leading outside), through the real CLI.
// Every child runs under a deadline and is killed past it, so a hang fails the test instead of
// hanging the suite.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  ftruncateSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import {
  CLI,
  childEnv,
  ledgerPath,
  readLedger,
  runCli,
  sampleContract,
  tempRoot,
  writeJson,
} from '../helpers/cli';

const MiB = 1024 * 1024;
const DEADLINE_MS = 15_000;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** The CLI as a child, SIGKILLed past the deadline (then `signal` is set and the test fails). */
function cli(args: string[]): Run {
  const started = Date.now();
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: childEnv(),
    encoding: 'utf8',
    timeout: DEADLINE_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * MiB,
  });
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  const run = {
    code: r.status,
    signal: r.signal,
    stdout: r.stdout,
    stderr: r.stderr,
    ms: Date.now() - started,
    json,
  };
  assert.equal(run.signal, null, `loop-ledger ${args.join(' ')} did not end within ${DEADLINE_MS} ms`);
  return run;
}

function oneClearLine(run: Run): string {
  const lines = run.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `stderr:\n${run.stderr}`);
  assert.doesNotMatch(run.stderr, /^\s+at |node:internal|Error:/m);
  return lines[0] as string;
}

/** A pid that has certainly exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    env: childEnv(),
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

describe('reliability: hostile files in the ledger folder', function () {
  this.timeout(120_000);
  let root: string;
  let contract: string;
  const dir = () => join(root, '.loop', 'ledgers');
  const iterate = (session: string, action = `a${Math.random()}`) =>
    cli(['iterate', '--root', root, '--session', session, '--outcome', 'continue', '--action', action]);

  beforeEach(() => {
    root = tempRoot('loop-ledger-hostile-files-');
    contract = writeJson(join(root, 'contract.json'), sampleContract({ iteration_limit: 1000 }));
    assert.equal(runCli(['open', '--root', root, '--session', 'good', '--contract', contract]).code, 0);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  describe('ledgers that are not regular files, or too big', () => {
    function plant(): void {
      symlinkSync('/dev/zero', join(dir(), 'zero.json'));
      execFileSync('mkfifo', [join(dir(), 'fifo.json')]);
      const fd = openSync(join(dir(), 'huge.json'), 'w');
      ftruncateSync(fd, 256 * MiB + 1); // sparse: costs no disk
      closeSync(fd);
      symlinkSync(ledgerPath(root, 'good'), join(dir(), 'alias.json'));
    }

    it('list ends, lists each as unreadable with its reason, and still lists the good session', () => {
      plant();
      const run = cli(['list', '--root', root, '--json']);
      assert.equal(run.code, 0, run.stderr);
      const byId = new Map<string, { status: string | null; error?: string }>(
        run.json.sessions.map((s: { session: string }) => [s.session, s]),
      );
      assert.equal(byId.get('good')?.status, 'open');
      assert.match(byId.get('zero')?.error ?? '', /symbolic link/);
      assert.match(byId.get('alias')?.error ?? '', /symbolic link/);
      assert.match(byId.get('fifo')?.error ?? '', /FIFO, not a regular file/);
      assert.match(byId.get('huge')?.error ?? '', /256\.0 MiB, over the 256 MiB ledger size limit/);
    });

    it('every command refuses them at once with exit 2, naming the reason', () => {
      plant();
      const reasons: [string, RegExp][] = [
        ['zero', /symbolic link/],
        ['fifo', /FIFO/],
        ['huge', /size limit/],
      ];
      for (const [session, reason] of reasons) {
        const common = ['--root', root, '--session', session];
        for (const args of [
          ['status', ...common],
          ['iterate', ...common, '--outcome', 'continue'],
          ['open', ...common, '--contract', contract],
          ['resume', ...common],
        ]) {
          const run = cli(args);
          assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
          assert.match(oneClearLine(run), reason);
        }
      }
    });

    it('open --force moves the entry aside without reading it, and writes a regular ledger', () => {
      plant();
      for (const session of ['zero', 'fifo', 'huge']) {
        const run = cli(['open', '--root', root, '--session', session, '--contract', contract, '--force']);
        assert.equal(run.code, 0, run.stderr);
        const kept = readdirSync(dir()).filter((name) => name.startsWith(`${session}.json.corrupt-`));
        assert.equal(kept.length, 1);
        assert.ok(lstatSync(ledgerPath(root, session)).isFile());
        assert.equal(readLedger(root, session).status, 'open');
      }
      assert.ok(
        lstatSync(
          join(dir(), readdirSync(dir()).find((n) => n.startsWith('zero.json.corrupt-')) as string),
        ).isSymbolicLink(),
      );
    });
  });

  describe("entries in the lock's place", () => {
    it('a dangling symlink at <ledger>.lock is cleared, not spun on', () => {
      symlinkSync(join(root, 'nowhere'), `${ledgerPath(root, 'good')}.lock`);
      const run = iterate('good');
      assert.equal(run.code, 0, run.stderr);
      assert.ok(!existsSync(`${ledgerPath(root, 'good')}.lock`));
      assert.equal(readLedger(root, 'good').iterations.length, 1);
    });

    it('a FIFO or an empty folder at <ledger>.lock is cleared', () => {
      execFileSync('mkfifo', [`${ledgerPath(root, 'good')}.lock`]);
      assert.equal(iterate('good').code, 0);
      mkdirSync(`${ledgerPath(root, 'good')}.lock`);
      assert.equal(iterate('good').code, 0);
      assert.equal(readLedger(root, 'good').iterations.length, 2);
    });

    it('a folder with content at <ledger>.lock is reported at once, and kept', () => {
      mkdirSync(`${ledgerPath(root, 'good')}.lock`);
      writeFileSync(join(`${ledgerPath(root, 'good')}.lock`, 'keep.txt'), 'mine');
      const run = iterate('good');
      assert.equal(run.code, 74, run.stderr);
      assert.match(oneClearLine(run), /good\.json\.lock is a folder with content, not a lock file/);
      assert.equal(readFileSync(join(`${ledgerPath(root, 'good')}.lock`, 'keep.txt'), 'utf8'), 'mine');
    });

    it("a dangling .lock.break guard beside a dead holder's lock is cleared, and the write goes through", () => {
      const lock = `${ledgerPath(root, 'good')}.lock`;
      writeFileSync(
        lock,
        JSON.stringify({ pid: deadPid(), hostname: 'elsewhere', acquired_at: '2020-01-01T00:00:00Z' }),
      );
      const old = new Date(Date.now() - 60_000);
      // The lock is stale by age (another host), the guard a dangling symlink from long ago.
      const guard = `${lock}.break`;
      symlinkSync(join(root, 'nowhere'), guard);
      lutimesSync(guard, old, old);
      lutimesSync(lock, old, old);
      const run = iterate('good');
      assert.equal(run.code, 0, run.stderr);
      assert.ok(!existsSync(lock));
      assert.throws(() => lstatSync(guard), /ENOENT/);
    });
  });

  describe('file modes', () => {
    for (const mode of [0o600, 0o640, 0o444]) {
      it(`a ${mode.toString(8)} ledger keeps its mode through a rewrite`, () => {
        chmodSync(ledgerPath(root, 'good'), mode);
        const run = iterate('good');
        assert.equal(run.code, 0, run.stderr);
        assert.equal(statSync(ledgerPath(root, 'good')).mode & 0o777, mode);
        assert.equal(readLedger(root, 'good').iterations.length, 1);
      });
    }
  });

  describe('ledger folders that lead outside the root', () => {
    let outside: string;
    beforeEach(() => {
      outside = tempRoot('loop-ledger-outside-');
      writeFileSync(join(outside, 'settings.json'), 'SECRET_TOKEN=abc123\n');
    });
    afterEach(() => rmSync(outside, { recursive: true, force: true }));

    function listing(): Record<string, string> {
      return Object.fromEntries(
        readdirSync(outside).map((name) => [name, readFileSync(join(outside, name), 'utf8')]),
      );
    }

    for (const link of ['.loop/ledgers', '.loop']) {
      it(`${link} as a symlink outside: writes are refused (exit 2) and nothing outside changes`, () => {
        rmSync(join(root, '.loop'), { recursive: true });
        if (link === '.loop/ledgers') mkdirSync(join(root, '.loop'));
        symlinkSync(outside, join(root, link));
        const before = listing();
        for (const args of [
          ['open', '--root', root, '--session', 'fresh', '--contract', contract],
          ['open', '--root', root, '--session', 'settings', '--contract', contract, '--force'],
          ['iterate', '--root', root, '--session', 'settings', '--outcome', 'continue'],
          ['close', '--root', root, '--session', 'settings', '--outcome', 'stop'],
        ]) {
          const run = cli(args);
          assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
          const line = oneClearLine(run);
          assert.match(line, /outside the workspace root's real path/);
          assert.doesNotMatch(line, /SECRET|abc123/);
        }
        assert.deepEqual(listing(), before);
      });
    }

    it('.loop/ledgers as a dangling symlink: writes are refused (exit 2), nothing is created through it', () => {
      rmSync(join(root, '.loop'), { recursive: true });
      mkdirSync(join(root, '.loop'));
      const target = join(outside, 'not-yet');
      symlinkSync(target, join(root, '.loop', 'ledgers'));
      const run = cli(['open', '--root', root, '--session', 'fresh', '--contract', contract]);
      assert.equal(run.code, 2, run.stderr);
      assert.match(oneClearLine(run), /ledgers is a symbolic link to a missing folder/);
      assert.ok(!existsSync(target));
    });

    it('reading a file that is not a ledger never quotes its content', () => {
      rmSync(join(root, '.loop'), { recursive: true });
      mkdirSync(join(root, '.loop'));
      symlinkSync(outside, join(root, '.loop', 'ledgers'));
      const status = cli(['status', '--root', root, '--session', 'settings']);
      assert.equal(status.code, 2, status.stderr);
      assert.match(
        oneClearLine(status),
        /settings\.json: ledger is not valid JSON \(it holds an unexpected character\)/,
      );
      const list = cli(['list', '--root', root, '--json']);
      assert.equal(list.code, 0, list.stderr);
      assert.match(list.json.sessions[0].error, /not valid JSON/);
      for (const run of [status, list]) assert.doesNotMatch(run.stdout + run.stderr, /SECRET|abc123/);
    });
  });
});
