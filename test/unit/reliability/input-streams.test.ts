// Inputs that are not regular files: pipes, process substitution, /dev/stdin,
// named FIFOs and character devices are read to their end under the same size caps, through the
// real CLI. A FIFO nobody writes to is refused after a bounded wait instead of hanging.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, openSync, closeSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { FIFO_WAIT_ENV, readTextFile } from '../../../src/app/read-input';
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

const DIFF = 'diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b\n';

/** Runs a bash script in `cwd` with `$CLI` set; a hang is cut off (and shows as a failure). */
function bash(script: string, cwd: string, env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return spawnSync('bash', ['-c', script], {
    cwd,
    env: childEnv({ CLI: `${process.execPath} ${CLI}`, ...env }),
    encoding: 'utf8',
    timeout: 30_000,
  });
}

function mkfifo(path: string): void {
  const made = spawnSync('mkfifo', [path]);
  assert.equal(made.status, 0, String(made.stderr));
}

describe('reliability: inputs that are pipes, FIFOs or devices', function () {
  this.timeout(120_000);
  let root: string;

  before(() => {
    root = tempRoot('loop-ledger-streams-');
    writeJson(join(root, 'c.json'), sampleContract());
    writeText(join(root, 'd.diff'), DIFF);
    writeText(join(root, 'v.txt'), 'all 12 tests passed\n');
    writeText(join(root, 'stat.txt'), ' src/a.ts | 2 +-\n');
    writeText(join(root, 'baseline.txt'), 'files: 10\n');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('validate reads a contract piped to /dev/stdin (a pipe) and from process substitution', () => {
    const piped = bash('cat c.json | $CLI validate /dev/stdin', root);
    assert.equal(piped.status, 0, piped.stderr);
    assert.match(piped.stdout, /valid contract/);
    const substituted = bash('$CLI validate <(cat c.json)', root);
    assert.equal(substituted.status, 0, substituted.stderr);
    const redirected = bash('$CLI validate /dev/stdin < c.json', root);
    assert.equal(redirected.status, 0, redirected.stderr);
  });

  it('validate reads /dev/stdin when stdin is a socket (a Node parent with piped stdio)', () => {
    const result = runCli(['validate', '/dev/stdin'], { input: JSON.stringify(sampleContract()) });
    assert.equal(result.code, 0, result.stderr);
  });

  it('brief reads the diff, the verification and the change scope from process substitution', () => {
    assert.equal(bash('$CLI open --session b --contract <(cat c.json)', root).status, 0);
    const result = bash(
      '$CLI brief --session b --diff-file <(cat d.diff) --verification-file <(cat v.txt) --change-scope <(cat stat.txt) --json',
      root,
    );
    assert.equal(result.status, 0, result.stderr);
    const packet = JSON.parse(result.stdout);
    assert.equal(packet.diff, DIFF);
    assert.equal(packet.scope.provenance, 'verified');
  });

  it('open reads a --baseline-evidence transcript from a pipe', () => {
    const result = bash(
      '$CLI open --session e --contract c.json --baseline-evidence hard-one=<(cat baseline.txt)',
      root,
    );
    assert.equal(result.status, 0, result.stderr);
    const ledger = JSON.parse(readFileSync(ledgerPath(root, 'e'), 'utf8'));
    assert.equal(ledger.baseline_provenance['hard-one'], 'measured');
  });

  it('an empty pipe is still "empty" (exit 8 for brief) and not a wait', () => {
    assert.equal(bash('$CLI open --session em --contract c.json', root).status, 0);
    const result = bash('$CLI brief --session em --diff-file <(true) --verification-file v.txt', root);
    assert.equal(result.status, 8, result.stderr);
    assert.match(result.stderr, /empty/);
  });

  it('a named FIFO whose writer comes a moment later is read whole', async () => {
    const fifo = join(root, 'late.fifo');
    mkfifo(fifo);
    const child = spawn(process.execPath, [CLI, 'validate', fifo, '--json'], { env: childEnv() });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Opening for writing completes only now that the CLI holds the read end.
    const fd = openSync(fifo, 'w');
    writeSync(fd, JSON.stringify(sampleContract()).slice(0, 100));
    await new Promise((resolve) => setTimeout(resolve, 100));
    writeSync(fd, JSON.stringify(sampleContract()).slice(100));
    closeSync(fd);
    assert.equal(await exited, 0);
    assert.equal(JSON.parse(stdout).valid, true);
  });

  it('a named FIFO with no writer is refused after the wait, not hung on (exit 2 contract, 8 brief)', () => {
    const fifo = join(root, 'nobody.fifo');
    mkfifo(fifo);
    const env = { [FIFO_WAIT_ENV]: '300' };
    const validate = bash(`$CLI validate ${fifo}`, root, env);
    assert.equal(validate.signal, null, 'validate hung');
    assert.equal(validate.status, 2, validate.stderr);
    assert.match(
      validate.stderr,
      /nobody\.fifo: contract file is a FIFO with no writer and no data after 0\.3 s/,
    );
    assert.match(validate.stderr, new RegExp(FIFO_WAIT_ENV));
    assert.equal(bash('$CLI open --session f --contract c.json', root).status, 0);
    const brief = bash(`$CLI brief --session f --diff-file ${fifo} --verification-file v.txt`, root, env);
    assert.equal(brief.signal, null, 'brief hung');
    assert.equal(brief.status, 8, brief.stderr);
    assert.match(brief.stderr, /nobody\.fifo.*FIFO with no writer/);
    const ledger = JSON.parse(readFileSync(ledgerPath(root, 'f'), 'utf8'));
    assert.equal(ledger.pending_brief, null, 'the refused brief armed nothing');
    const badWait = bash(`$CLI validate ${fifo}`, root, { [FIFO_WAIT_ENV]: 'soon' });
    assert.equal(badWait.status, 2);
    assert.match(badWait.stderr, /must be a whole number of milliseconds, got "soon"/);
  });

  it('an endless device is cut at the size cap (exit 2 for a contract), never read as empty', () => {
    const result = runCli(['validate', '/dev/zero']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /\/dev\/zero: contract file is over the 1048576-byte limit/);
  });

  it('readTextFile: a stream over the limit is refused; a /proc file of stated size 0 is read whole', () => {
    const fifo = join(root, 'big.fifo');
    mkfifo(fifo);
    const writer = spawn('bash', ['-c', `head -c 5000 /dev/zero | tr '\\0' x > ${fifo}`]);
    const over = readTextFile(fifo, 4096);
    writer.kill();
    assert.deepEqual(over, { path: fifo, error: 'is over the 4096-byte limit', tooLarge: { size: null } });
    if (existsSync('/proc/self/status')) {
      const proc = readTextFile('/proc/self/status', 1 << 20);
      assert.ok('text' in proc && proc.text.includes('Pid:'), JSON.stringify(proc).slice(0, 200));
    }
  });
});
