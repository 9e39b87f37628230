// A crash between the receipt and the ledger write, through the CLI as a child process: the
// harness is SIGKILLed at exactly that point (the ledger's lock is held by this test when the
// receipt appears, so the harness is waiting on it), and the next run of the session records the
// missing attempt from the run's saved ending — once — and goes on.
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
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
  runSample,
  sampleRepo,
  startLoop,
  waitFor,
} from './harness-helpers';

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

/**
 * Runs the harness and kills it after the receipt, before the ledger write: by default `repair`
 * (attempt 1 repairs, attempt 2 passes), held at attempt 2's reviewer while the lock is taken.
 */
async function crashAfterReceipt(
  repo: string,
  gated: { mode: string; role: string; attempt: string } = {
    mode: 'repair',
    role: 'code-reviewer',
    attempt: '2',
  },
): Promise<string> {
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
      LOOP_FIXTURE_MODE: gated.mode,
      FIXTURE_PID_FILE: pidFile,
      FIXTURE_REVIEWER_GATE: gate,
      FIXTURE_GATE_ROLE: gated.role,
      FIXTURE_GATE_ATTEMPT: gated.attempt,
    },
  );
  // The gated agent is running: nothing more reaches the ledger until the run's end.
  await waitFor(() => existsSync(pidFile) && readText(pidFile) !== '', 30_000);
  const release = holdLedgerLock(repo);
  try {
    writeFileSync(gate, '');
    await waitFor(() => existsSync(join(repo, '.loop', 'runs')) && hasReceipt(repo), 30_000);
    child.kill('SIGKILL');
    await exited(child);
  } finally {
    release();
  }
  return onlyRunDir(repo);
}

function hasReceipt(repo: string): boolean {
  try {
    return existsSync(join(onlyRunDir(repo), 'final-receipt.json'));
  } catch {
    return false;
  }
}

describe('run: a crash between the receipt and the ledger write', function () {
  this.timeout(120_000);

  it('the next run records the missing attempt from the saved ending, once, and goes on', async () => {
    const repo = sampleRepo();
    const dir = await crashAfterReceipt(repo);
    const receipt = readJson(join(dir, 'final-receipt.json'));
    assert.equal(receipt.final_verdict, 'PASS');
    assert.equal(receipt.attempts_used, 2);
    const crashed = readLedger(repo, SESSION);
    assert.equal(crashed.status, 'open', 'the harness died before closing the epoch');
    assert.equal(crashed.iterations.length, 1, 'attempt 1 recorded, attempt 2 not');
    const runId = receipt.run_id as string;

    // Before the fix this was refused: "open with 1 iteration(s) not from an unfinished run".
    const next = runSample(repo, 'pass', ['--session', SESSION, '--no-require-clean']);
    assert.equal(next.code, 0, next.stderr);
    assert.match(
      next.stderr,
      new RegExp(`run ${runId} ended \\(CODE_REVIEWER_PASS\\) but the ledger missed it; recorded attempt 2`),
    );
    const ledger = readLedger(repo, SESSION);
    assert.equal(ledger.epoch, 2, 'the new run is the next epoch');
    const first = ledger.iterations.filter((i: { epoch?: number }) => (i.epoch ?? 1) === 1);
    assert.deepEqual(
      first.map((i: { outcome: string }) => i.outcome),
      ['continue', 'complete'],
    );
    const recovered = first[1];
    assert.deepEqual(recovered.actions, [
      `${runId}/02/coder`,
      `${runId}/02/checks`,
      `${runId}/02/code-reviewer`,
    ]);
    assert.equal(recovered.critic_verdict, 'PASS');
    assert.equal(recovered.decision, 'retain');
    assert.equal(
      recovered.critic_brief,
      readJson(join(dir, 'attempts/02/critic-brief.json')).brief_id,
      'the brief was re-armed from the diff the reviewer saw',
    );
    assert.ok(recovered.evidence_paths.includes(`.loop/runs/${runId}/final-receipt.json`));

    // A third run finds nothing to recover: the ending is never recorded twice.
    const third = runSample(repo, 'pass', ['--session', SESSION, '--no-require-clean']);
    assert.equal(third.code, 0, third.stderr);
    assert.doesNotMatch(third.stderr, /ledger missed it/);
    const actions: string[] = readLedger(repo, SESSION).completed_actions;
    assert.equal(new Set(actions).size, actions.length, 'no action recorded twice');
    assert.equal(actions.filter((a) => a === `${runId}/02/coder`).length, 1);
  });

  it('a refused next run still records the previous run’s ending (it is that run’s last step)', async () => {
    const repo = sampleRepo();
    await crashAfterReceipt(repo);
    // The tree is dirty with the crashed run's work: require-clean refuses this run (exit 2) ...
    const refused = runSample(repo, 'pass', ['--session', SESSION]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /ledger missed it; recorded attempt 2/);
    assert.match(refused.stderr, /working tree is not clean/);
    // ... and the session is no longer stuck open.
    const ledger = readLedger(repo, SESSION);
    assert.equal(ledger.status, 'closed');
    assert.equal(ledger.final_outcome, 'complete');
    assert.equal(ledger.iterations.length, 2);
  });

  it('a crash after an explorer failure’s receipt: the escalate record is recovered, not lost to a reused epoch', async () => {
    const repo = sampleRepo();
    const dir = await crashAfterReceipt(repo, { mode: 'explorer-fail', role: 'explorer', attempt: '0' });
    const receipt = readJson(join(dir, 'final-receipt.json'));
    assert.equal(receipt.stop_reason, 'AGENT_FAILED');
    assert.equal(receipt.attempts_used, 0);
    const crashed = readLedger(repo, SESSION);
    assert.equal(crashed.status, 'open');
    assert.equal(crashed.iterations.length, 0);

    const next = runSample(repo, 'pass', ['--session', SESSION]);
    assert.equal(next.code, 0, next.stderr);
    assert.match(next.stderr, /recorded the explorer’s failure from its saved ending/);
    const ledger = readLedger(repo, SESSION);
    assert.equal(ledger.epoch, 2, 'the crashed run kept its own epoch');
    const [first] = ledger.iterations;
    assert.equal(first.outcome, 'escalate');
    assert.equal(first.blocker, 'AGENT_FAILED: explorer failed');
    assert.equal(first.evidence, `${receipt.artifacts.run_dir}/final-receipt.json`);
    assert.equal(ledger.final_outcome, 'complete', 'the new run passed in epoch 2');
  });

  it('a saved ending that is not whole (hand-edited) is not trusted: the old refusal stands, no stack trace', async () => {
    const repo = sampleRepo();
    const dir = await crashAfterReceipt(repo);
    const runId = readJson(join(dir, 'final-receipt.json')).run_id;
    writeFileSync(
      join(dir, 'ledger-ending.json'),
      JSON.stringify({ run_id: runId, ending: { kind: 'attempt', outcome: { attempt: 2 } } }),
    );
    const next = runSample(repo, 'pass', ['--session', SESSION, '--no-require-clean']);
    assert.equal(next.code, 2);
    assert.match(next.stderr, /open with 1 iteration\(s\) not from an unfinished run; close it first/);
    assert.doesNotMatch(next.stderr, /\n\s+at /);
    assert.equal(readLedger(repo, SESSION).iterations.length, 1, 'nothing recorded from it');
  });
});
