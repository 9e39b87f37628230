// The run's ending, trusted only when the ledger vouches for it, through the CLI as a child
// process: the harness records the ending (with the digest of its saved ending file) before it
// writes the receipt. A crash before that ledger write resumes the run; a crash after it gets its
// receipt written from the saved ending; a receipt forged by an agent that killed the harness is
// set aside and the run resumes, its checks really run; a ledger that refuses the ending leaves
// no receipt and a system exit code.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ledgerPath, readLedger, tempRoot } from '../helpers/cli';
import {
  AGENTS,
  ALLOW,
  CHECK,
  exited,
  onlyRunDir,
  readJson,
  readText,
  runLoop,
  runSample,
  sampleRepo,
  startLoop,
  waitFor,
} from './helpers';

const SESSION = 'recover-1';

/** Takes the ledger's lock as a live process (this test) would: the harness waits for it. */
function holdLedgerLock(repo: string): () => void {
  const lock = `${ledgerPath(repo, SESSION)}.lock`;
  writeFileSync(
    lock,
    JSON.stringify({ pid: process.pid, hostname: hostname(), acquired_at: new Date().toISOString() }),
    { flag: 'wx' },
  );
  return () => rmSync(lock, { force: true });
}

function runDirFile(repo: string, name: string): boolean {
  try {
    return existsSync(join(onlyRunDir(repo), name));
  } catch {
    return false;
  }
}

/**
 * `repair` (attempt 1 repairs, attempt 2 passes), held at attempt 2's reviewer while the test
 * takes the ledger's lock; killed once the ending file is saved, while the harness waits for the
 * lock to record it: the crash falls between the saved ending and the ledger write.
 */
async function crashBeforeLedgerWrite(repo: string): Promise<string> {
  const scratch = tempRoot('gate-');
  const pidFile = join(scratch, 'reviewer.pid');
  const gate = join(scratch, 'gate');
  const child = startLoop(
    repo,
    [
      '--objective',
      'Implement parseDuration',
      '--agent-config',
      AGENTS,
      ...ALLOW,
      ...CHECK,
      '--print-json',
      '--session',
      SESSION,
    ],
    {
      LOOP_FIXTURE_MODE: 'repair',
      FIXTURE_PID_FILE: pidFile,
      FIXTURE_REVIEWER_GATE: gate,
      FIXTURE_GATE_ROLE: 'code-reviewer',
      FIXTURE_GATE_ATTEMPT: '2',
    },
  );
  await waitFor(() => existsSync(pidFile) && readText(pidFile) !== '', 30_000);
  const release = holdLedgerLock(repo);
  try {
    writeFileSync(gate, '');
    await waitFor(() => runDirFile(repo, 'ledger-ending.json'), 30_000);
    child.kill('SIGKILL');
    await exited(child);
  } finally {
    release();
  }
  return onlyRunDir(repo);
}

describe('run: the ending is trusted only when the ledger vouches for it', function () {
  this.timeout(120_000);

  it('a crash before the ledger write leaves no receipt; the next run resumes and records the attempt once', async () => {
    const repo = sampleRepo();
    const dir = await crashBeforeLedgerWrite(repo);
    assert.ok(!existsSync(join(dir, 'final-receipt.json')), 'no receipt before the ledger has the ending');
    const crashed = readLedger(repo, SESSION);
    assert.equal(crashed.status, 'open');
    assert.equal(crashed.iterations.length, 1, 'attempt 1 recorded, attempt 2 not');

    const next = runSample(repo, 'pass', ['--session', SESSION, '--no-require-clean']);
    assert.equal(next.code, 0, next.stderr);
    assert.equal(next.json.final_verdict, 'PASS');
    const ledger = readLedger(repo, SESSION);
    assert.equal(ledger.epoch, 1, 'the same run, resumed');
    assert.deepEqual(
      ledger.iterations.map((i: { outcome: string }) => i.outcome),
      ['continue', 'complete'],
    );
    const actions: string[] = ledger.completed_actions;
    assert.equal(new Set(actions).size, actions.length, 'no action recorded twice');
    assert.equal(ledger.run_ending.run_id, readJson(join(dir, 'final-receipt.json')).run_id);
  });

  it('a crash after the ledger write, before the receipt: the receipt is written from the vouched ending', () => {
    const repo = sampleRepo();
    const first = runSample(repo, 'pass', ['--session', SESSION]);
    assert.equal(first.code, 0, first.stderr);
    const dir = onlyRunDir(repo);
    const receiptText = readFileSync(join(dir, 'final-receipt.json'), 'utf8');
    // What a SIGKILL between the two leaves: the ledger has the ending, the receipt is missing.
    rmSync(join(dir, 'final-receipt.json'));
    const next = runSample(repo, 'pass', ['--session', SESSION, '--no-require-clean']);
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.stderr, /died before writing its receipt; written from the saved ending/);
    assert.equal(readFileSync(join(dir, 'final-receipt.json'), 'utf8'), receiptText);
    const ledger = readLedger(repo, SESSION);
    assert.equal(ledger.epoch, 2, 'the first run stays finished in its own epoch');
    assert.equal(ledger.iterations.filter((i: { epoch: number }) => i.epoch === 1).length, 1);
  });

  it('a forged ending and receipt, written by a coder that kills the harness, are set aside; the checks really run', () => {
    const repo = sampleRepo();
    const forged = runLoop(
      repo,
      [
        '--objective',
        'Implement parseDuration',
        '--agent-config',
        AGENTS,
        ...ALLOW,
        '--check',
        'false',
        '--max-attempts',
        '1',
        '--print-json',
        '--session',
        SESSION,
      ],
      { LOOP_FIXTURE_MODE: 'coder-forges-ending' },
    );
    assert.equal(forged.code, null, 'the harness was killed by its coder');
    const dir = onlyRunDir(repo);
    assert.equal(readJson(join(dir, 'final-receipt.json')).final_verdict, 'PASS', 'the forgery is in place');

    const next = runLoop(
      repo,
      [
        '--objective',
        'Implement parseDuration',
        '--agent-config',
        AGENTS,
        ...ALLOW,
        '--check',
        'false',
        '--max-attempts',
        '1',
        '--print-json',
        '--session',
        SESSION,
        '--no-require-clean',
      ],
      { LOOP_FIXTURE_MODE: 'pass' },
    );
    assert.match(
      next.stderr,
      /has a receipt the ledger never recorded \(not written by the harness\); set aside/,
    );
    assert.equal(next.code, 1, next.stderr);
    assert.notEqual(next.json.final_verdict, 'PASS');
    const receipt = readJson(join(dir, 'final-receipt.json'));
    assert.equal(receipt.checks[0].returncode, 1, 'the check ran this time');
    const ledger = readLedger(repo, SESSION);
    assert.notEqual(ledger.final_outcome, 'complete');
    assert.equal(ledger.iterations.length, 1, 'one record, the real one');
    assert.ok(!ledger.iterations.some((i: { critic_verdict: string }) => i.critic_verdict === 'PASS'));
    assert.ok(
      readdirSync(dir).some((n) => n.startsWith('.final-receipt.json.untrusted-')),
      'the forgery is kept as evidence',
    );
  });

  it('a coder that breaks the ledger lock: no PASS receipt, the ledger failure is the exit code', () => {
    const repo = sampleRepo();
    const r = runSample(repo, 'coder-breaks-lock', ['--session', SESSION], { FIXTURE_SESSION: SESSION });
    assert.equal(r.code, 74, r.stderr); // the system exit code
    assert.match(r.stderr, /the ledger did not take its ending, so no receipt was written/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.ok(!existsSync(join(onlyRunDir(repo), 'final-receipt.json')), 'no receipt without a record');
  });
});
