// Messages and exit codes, through the real CLI: control characters in echoed
// values are spelled out, an OS error is named once, disk full / permission denied exit 74 and a
// bug exits 70 (never 1, which means malformed input), each on one line naming the file.
//
// Disk full is real: stdout on /dev/full, and a ledger on a 16 KiB tmpfs mounted in a private
// mount namespace (`unshare -rm`, so nothing outlives the child). Permission denied cannot be
// produced for root by file modes, and a bug cannot be produced on purpose: those two are
// injected into the real CLI process by a preloaded module that makes one fs call fail.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  internalErrorMessage,
  isSystemError,
  systemFailureMessage,
  unreadableBySystem,
} from '../../../src/app/system-error';
import { visible } from '../../../src/cli/output';
import {
  CLI,
  childEnv,
  ledgerPath,
  runCli,
  sampleContract,
  tempRoot,
  writeJson,
  writeText,
} from '../helpers/cli';

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with a preloaded fault (JS source run before the bundle). */
function runWithFault(fault: string, args: string[], dir: string): Run {
  const preload = writeText(join(dir, `fault-${Date.now()}-${Math.random()}.cjs`), fault);
  const r = spawnSync(process.execPath, ['--require', preload, CLI, ...args], {
    env: childEnv(),
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A preload that makes `fs.<fn>` throw `error` when its first argument matches `pattern`. */
function fsFault(fn: string, pattern: RegExp, error: string): string {
  return `
const fs = require('node:fs');
const original = fs.${fn};
fs.${fn} = function (...args) {
  if (${pattern}.test(String(args[0]))) { ${error} }
  return original.apply(this, args);
};`;
}

/** JS that throws Node's EACCES error for the path the expression `pathCode` evaluates to. */
const EACCES = (pathCode: string, syscall: string) => `
const path = ${pathCode};
const e = new Error("EACCES: permission denied, ${syscall} '" + path + "'");
e.code = 'EACCES'; e.errno = -13; e.syscall = '${syscall}'; e.path = path;
throw e;`;

function oneLine(stderr: string): string {
  assert.ok(stderr.endsWith('\n'), JSON.stringify(stderr));
  const lines = stderr.slice(0, -1).split('\n');
  assert.equal(lines.length, 1, `expected one stderr line:\n${stderr}`);
  assert.doesNotMatch(stderr, /^\s+at |node:internal|\.js:\d+/m, 'a stack trace');
  return lines[0] as string;
}

describe('reliability: messages and exit codes', function () {
  this.timeout(120_000);
  let root: string;
  let contract: string;

  before(() => {
    root = tempRoot('loop-ledger-messages-');
    contract = writeJson(join(root, 'in', 'c.json'), sampleContract());
    assert.equal(runCli(['open', '--root', root, '--session', 's', '--contract', contract]).code, 0);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  describe('control characters in echoed values', () => {
    const forged = 'a\x1b[31mRED\x1b[0m\rloop-ledger: all good\x9b2J\u202etxt.exe\x07';

    it('a refused --action is spelled out on stderr: ESC, lone CR, C1, bidi override, BEL', () => {
      const args = ['iterate', '--root', root, '--session', 's', '--outcome', 'continue', '--action', forged];
      assert.equal(runCli(args).code, 0);
      const again = runCli(args);
      assert.equal(again.code, 5);
      const line = oneLine(again.stderr);
      assert.doesNotMatch(line, RAW_CONTROL, JSON.stringify(line));
      assert.ok(line.includes('a\\e[31mRED\\e[0m\\rloop-ledger: all good\\x9b2J\\u202etxt.exe\\x07'), line);
      // The ledger keeps the value exactly as given: only the display is escaped.
      const ledger = JSON.parse(readFileSync(ledgerPath(root, 's'), 'utf8'));
      assert.ok(ledger.completed_actions.includes(forged));
    });

    it('a file path is spelled out in findings and in the human stdout line', () => {
      const missing = runCli(['validate', join(root, `nope\x1b[2J\r.json`)]);
      assert.equal(missing.code, 2);
      assert.doesNotMatch(oneLine(missing.stderr), RAW_CONTROL);
      assert.match(missing.stderr, /nope\\e\[2J\\r\.json/);
      const odd = writeJson(join(root, 'in', 'odd\x1b]0;title\x07\r.json'), sampleContract());
      const valid = runCli(['validate', odd]);
      assert.equal(valid.code, 0, valid.stderr);
      assert.doesNotMatch(valid.stdout.slice(0, -1), RAW_CONTROL);
      assert.match(valid.stdout, /odd\\e\]0;title\\x07\\r\.json: valid contract/);
    });

    it('list spells out a root with control characters and keeps its own layout', () => {
      const result = runCli(['list', '--root', join(root, 'no\x1b[31mne')]);
      assert.equal(result.code, 0);
      assert.equal(result.stdout, `no ledgers under ${join(root, 'no\\e[31mne')}\n`);
    });

    it('visible() spells out every C0, DEL, C1 and bidi control, and leaves text alone', () => {
      assert.equal(
        visible('\t\n\r\x1b\x00\x7f\x85\u200f\u2066x é ✓'),
        '\\t\\n\\r\\e\\x00\\x7f\\x85\\u200f\\u2066x é ✓',
      );
    });
  });

  describe('system failures: exit 74, the file named, the error named once', () => {
    it('stdout on a full disk (/dev/full) is exit 74 naming stdout, ENOSPC said once', () => {
      const full = openSync('/dev/full', 'w');
      try {
        const r = spawnSync(process.execPath, [CLI, 'status', '--root', root, '--session', 's', '--json'], {
          env: childEnv(),
          encoding: 'utf8',
          stdio: ['ignore', full, 'pipe'],
        });
        assert.equal(r.status, 74, r.stderr);
        const line = oneLine(r.stderr);
        assert.equal(
          line,
          'loop-ledger status: cannot write to stdout: no space left on the device (ENOSPC); the command ran, its output was lost',
        );
      } finally {
        closeSync(full);
      }
    });

    for (const args of [['--version'], ['--help'], []]) {
      it(`\`loop-ledger ${args.join(' ')}\` with stdout on a full disk is one line and exit 74, no stack`, () => {
        const full = openSync('/dev/full', 'w');
        try {
          const r = spawnSync(process.execPath, [CLI, ...args], {
            env: childEnv(),
            encoding: 'utf8',
            stdio: ['ignore', full, 'pipe'],
          });
          assert.equal(r.status, 74, r.stderr);
          assert.match(
            oneLine(r.stderr),
            /^loop-ledger .*cannot write to stdout: no space left on the device \(ENOSPC\)/,
          );
        } finally {
          closeSync(full);
        }
      });
    }

    it('a ledger write on a full file system is exit 74 naming the ledger; the old ledger stays whole', function () {
      const probe = spawnSync('unshare', ['-rm', 'true']);
      if (probe.status !== 0) this.skip(); // no private mount namespace here: the injected cases below still run
      const base = tempRoot('loop-ledger-enospc-');
      try {
        const script = `
set -e
mkdir -p "$BASE/ws"
mount -t tmpfs -o size=16k tmpfs "$BASE/ws"
"$NODE" "$CLI" open --root "$BASE/ws" --session s --contract "$CONTRACT" >/dev/null
note=$(head -c 1500 /dev/zero | tr '\\0' x)
for i in $(seq 1 30); do
  set +e
  "$NODE" "$CLI" iterate --root "$BASE/ws" --session s --outcome continue --note "$note" >/dev/null 2>"$BASE/err"
  code=$?
  set -e
  if [ $code -ne 0 ]; then echo "$code"; cp "$BASE/err" "$BASE/err.txt"; cp "$BASE/ws/.loop/ledgers/s.json" "$BASE/last.json"; ls -a "$BASE/ws/.loop/ledgers" > "$BASE/names.txt"; exit 0; fi
done
echo none`;
        const r = spawnSync('unshare', ['-rm', 'bash', '-c', script], {
          env: childEnv({ BASE: base, NODE: process.execPath, CLI, CONTRACT: contract }),
          encoding: 'utf8',
          timeout: 60_000,
        });
        assert.equal(r.status, 0, r.stderr);
        assert.equal(r.stdout.trim(), '74', `exit code of the failing iterate: ${r.stdout} ${r.stderr}`);
        const line = oneLine(readFileSync(join(base, 'err.txt'), 'utf8'));
        assert.match(
          line,
          /^\/.*\/ws\/\.loop\/ledgers\/s\.json: cannot write: no space left on the device \(ENOSPC\)$/,
        );
        assert.equal(line.match(/ENOSPC/g)?.length, 1, 'ENOSPC named once');
        const last = JSON.parse(readFileSync(join(base, 'last.json'), 'utf8'));
        assert.ok(last.iterations.length >= 1);
        // No temporary file left behind by the failed write.
        assert.deepEqual(readFileSync(join(base, 'names.txt'), 'utf8').split('\n').filter(Boolean), [
          '.',
          '..',
          's.json',
        ]);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    });

    it('permission denied reading the ledger is exit 74, names it, and does not suggest open --force', () => {
      const path = ledgerPath(root, 's');
      const fault = fsFault('openSync', /ledgers\/s\.json$/, EACCES(JSON.stringify(path), 'open'));
      for (const command of [
        ['status'],
        ['iterate', '--outcome', 'continue'],
        ['open', '--contract', contract],
      ]) {
        const r = runWithFault(
          fault,
          [command[0] as string, '--root', root, '--session', 's', ...command.slice(1)],
          root,
        );
        assert.equal(r.code, 74, `${command[0]}: ${r.stderr}`);
        const line = oneLine(r.stderr);
        assert.ok(line.includes(path), line);
        assert.match(line, /EACCES/);
        assert.doesNotMatch(line, /--force/);
      }
    });

    it('permission denied writing the ledger is exit 74 naming the ledger, and the ledger is unchanged', () => {
      const path = ledgerPath(root, 's');
      const before = readFileSync(path, 'utf8');
      const fault = fsFault('openSync', /\.tmp$/, EACCES('String(args[0])', 'open'));
      const r = runWithFault(
        fault,
        ['iterate', '--root', root, '--session', 's', '--outcome', 'continue'],
        root,
      );
      assert.equal(r.code, 74, r.stderr);
      assert.equal(oneLine(r.stderr), `${path}: cannot open: permission denied (EACCES)`);
      assert.equal(readFileSync(path, 'utf8'), before);
      assert.deepEqual(
        readdirSync(join(root, '.loop', 'ledgers')).filter((n) => n.endsWith('.tmp')),
        [],
      );
    });
  });

  describe('internal errors: exit 70, one line, where to report', () => {
    it('an unexpected exception in a command is exit 70 with a report hint, not exit 1 or a stack', () => {
      // A bug stand-in: reading the clock for the iteration's timestamp throws the kind of
      // TypeError a real bug throws (the stamp reads it with getTime; see utcStamp).
      const fault = `Date.prototype.getTime = function () { throw new TypeError("Cannot read properties of undefined (reading 'x')"); };`;
      const before = readFileSync(ledgerPath(root, 's'), 'utf8');
      const r = runWithFault(
        fault,
        ['iterate', '--root', root, '--session', 's', '--outcome', 'continue'],
        root,
      );
      assert.equal(r.code, 70, r.stderr);
      const line = oneLine(r.stderr);
      assert.match(
        line,
        /^loop-ledger iterate: internal error \(TypeError: Cannot read properties of undefined \(reading 'x'\)\); this is a bug in loop-ledger: please report it/,
      );
      assert.equal(r.stdout, '');
      assert.equal(readFileSync(ledgerPath(root, 's'), 'utf8'), before);
    });

    it('the message helpers: the reason once, the file first, the temp file hidden', () => {
      const errno = (code: string, syscall: string, path?: string) =>
        Object.assign(new Error(`${code}: something, ${syscall}${path ? ` '${path}'` : ''}`), {
          code,
          syscall,
          path,
        });
      const enospc = errno('ENOSPC', 'write');
      assert.ok(isSystemError(enospc));
      assert.equal(
        systemFailureMessage(enospc, '/w/s.json'),
        '/w/s.json: cannot write: no space left on the device (ENOSPC)',
      );
      assert.equal(
        systemFailureMessage(errno('EACCES', 'open', '/w/.s.json.1.2.ab.tmp'), '/w/s.json'),
        '/w/s.json: cannot open: permission denied (EACCES)',
      );
      assert.equal(
        systemFailureMessage(errno('EROFS', 'mkdir', '/w/.loop'), '/w/.loop/ledgers/s.json'),
        '/w/.loop/ledgers/s.json: cannot create the folder for: read-only file system (EROFS) (at /w/.loop)',
      );
      assert.equal(
        systemFailureMessage(errno('EXDEV', 'rename', '/a')),
        '/a: cannot replace: something (EXDEV)',
      );
      assert.equal(
        systemFailureMessage(errno('ENOENT', 'spawnSync git', 'git')),
        'git: cannot run: no such file or folder (ENOENT)',
      );
      assert.equal(isSystemError(new TypeError('x')), false);
      assert.match(
        internalErrorMessage(new RangeError('boom\nsecond line')),
        /^internal error \(RangeError: boom\); .*report/,
      );
      assert.equal(unreadableBySystem('cannot be read (EACCES)'), true);
      assert.equal(unreadableBySystem('cannot be read (EISDIR)'), false);
      assert.equal(unreadableBySystem('is not valid JSON (EACCES)'), false);
      assert.ok(existsSync(CLI));
    });
  });
});
