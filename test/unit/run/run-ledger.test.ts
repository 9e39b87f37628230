// How a run lands on the ledger (README "loop-ledger run → On the ledger"), resume after a crash
// (SIGKILL mid-attempt), cancel (SIGINT) and an agent that edits the ledger.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readLedger, runCli, sampleContract, tempRoot, writeJson } from '../helpers/cli';
import {
  AGENTS,
  ALLOW,
  CHECK,
  alive,
  exited,
  onlyRunDir,
  readJson,
  readText,
  runSample,
  sampleRepo,
  startLoop,
  waitFor,
} from './helpers';

const SESSION = 'harness-1';
const sampleArgs = (extra: string[] = []) => [
  '--objective',
  'Implement parseDuration',
  '--agent-config',
  AGENTS,
  ...ALLOW,
  ...CHECK,
  '--print-json',
  '--session',
  SESSION,
  ...extra,
];

describe('run: the ledger, resume and cancel', function () {
  this.timeout(90_000);

  it('one iteration per attempt: actions, files, commands, evidence, critic verdict over the reviewer’s diff', () => {
    const repo = sampleRepo();
    const r = runSample(repo, 'repair', ['--session', SESSION]);
    assert.equal(r.code, 0, r.stderr);
    const ledger = readLedger(repo, SESSION);
    const runId = r.json.run_id;
    assert.equal(ledger.contract.purpose, 'Implement parseDuration');
    assert.equal(ledger.contract.iteration_limit, 3);
    assert.deepEqual(ledger.contract.expected_outputs, [
      'sample-target/src/time/**',
      'sample-target/tests/**',
    ]);
    assert.equal(ledger.iterations.length, 2);
    const [first, second] = ledger.iterations;
    assert.deepEqual(first.actions, [
      `${runId}/explorer`,
      `${runId}/01/coder`,
      `${runId}/01/checks`,
      `${runId}/01/code-reviewer`,
    ]);
    assert.equal(first.outcome, 'continue');
    assert.equal(first.critic_verdict, 'REVISE');
    assert.equal(first.decision, 'revise');
    assert.equal(first.critic_next, 'wrong result for 1h 30m');
    assert.deepEqual(first.commands_run, ['node sample-target/tests/check.mjs']);
    assert.deepEqual(first.files_changed, ['sample-target/src/time/parse_duration.mjs']);
    assert.deepEqual(first.measurements, { failing_checks: 1 });
    assert.ok(first.evidence_paths.includes(`.loop/runs/${runId}/attempts/01/checks.json`));
    assert.ok(first.evidence_paths.includes(`.loop/runs/${runId}/attempts/01/diff.patch`));
    // The brief the verdict is bound to was built from the exact diff the reviewer was shown.
    const packet = readJson(join(repo, `.loop/runs/${runId}/attempts/01/critic-brief.json`));
    const prompt = readJson(join(repo, `.loop/runs/${runId}/attempts/01/code-reviewer-prompt.md`));
    assert.equal(first.critic_brief, packet.brief_id);
    assert.equal(packet.diff, prompt.diff_text);
    assert.equal(packet.scope.provenance, 'verified');
    assert.deepEqual(second.actions, [
      `${runId}/02/coder`,
      `${runId}/02/checks`,
      `${runId}/02/code-reviewer`,
    ]);
    assert.equal(second.outcome, 'complete');
    assert.equal(second.critic_verdict, 'PASS');
    assert.equal(second.decision, 'retain');
    assert.deepEqual(second.measurements, { failing_checks: 0 });
    assert.ok(second.evidence_paths.includes(`.loop/runs/${runId}/final-receipt.json`));
    assert.equal(ledger.status, 'closed');
    assert.equal(ledger.final_outcome, 'complete');
  });

  it('MAX_ATTEMPTS records stop; a BLOCKED run escalates with reason, findings and the receipt', () => {
    const a = sampleRepo();
    runSample(a, 'reviewer-needs-changes', ['--session', SESSION, '--max-attempts', '2']);
    const stopped = readLedger(a, SESSION);
    assert.deepEqual(
      stopped.iterations.map((i: { outcome: string }) => i.outcome),
      ['continue', 'stop'],
    );
    const b = sampleRepo();
    const r = runSample(b, 'explorer-fail', ['--session', SESSION]);
    const escalated = readLedger(b, SESSION);
    assert.equal(escalated.iterations.length, 1, 'explorer failure is one escalate record');
    const [only] = escalated.iterations;
    assert.equal(only.outcome, 'escalate');
    assert.equal(only.blocker, 'AGENT_FAILED: explorer failed');
    assert.equal(only.evidence, `${r.json.artifacts.run_dir}/final-receipt.json`);
    assert.match(only.recommended_next, /agent/);
  });

  it('a second run of a session is its next epoch; a session open with foreign iterations is refused', () => {
    const repo = sampleRepo();
    runSample(repo, 'coder-fail', ['--session', SESSION]);
    const second = runSample(repo, 'pass', ['--session', SESSION, '--no-require-clean']);
    assert.equal(second.code, 0, second.stderr);
    const ledger = readLedger(repo, SESSION);
    assert.equal(ledger.epoch, 2);
    assert.equal(ledger.iterations.length, 2);

    const other = sampleRepo();
    const contract = writeJson(join(tempRoot('c-'), 'c.json'), sampleContract({ iteration_limit: 5 }));
    assert.equal(runCli(['open', '--root', other, '--session', SESSION, '--contract', contract]).code, 0);
    assert.equal(runCli(['iterate', '--root', other, '--session', SESSION, '--outcome', 'continue']).code, 0);
    const refused = runSample(other, 'pass', ['--session', SESSION]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /open with 1 iteration\(s\) not from an unfinished run/);
    assert.ok(!existsSync(join(other, '.loop', 'runs')));
  });

  it('a run under a person’s open contract uses it, and refuses one whose iteration_limit is too low', () => {
    const repo = sampleRepo();
    const contract = writeJson(join(tempRoot('c-'), 'c.json'), sampleContract({ iteration_limit: 2 }));
    assert.equal(runCli(['open', '--root', repo, '--session', SESSION, '--contract', contract]).code, 0);
    const refused = runSample(repo, 'pass', ['--session', SESSION]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /iteration_limit 2 is below --max-attempts 3/);
    const ok = runSample(repo, 'pass', ['--session', SESSION, '--max-attempts', '2']);
    assert.equal(ok.code, 0, ok.stderr);
    const ledger = readLedger(repo, SESSION);
    assert.equal(ledger.contract.purpose, 'Raise test coverage of the parser');
    assert.equal(ledger.iterations[0].measurements, null, 'the contract does not declare failing_checks');
  });

  it('an agent that edits the ledger stops the run: AGENT_FAILED, named', () => {
    const repo = sampleRepo();
    const r = runSample(repo, 'coder-edits-ledger', ['--session', SESSION], { FIXTURE_SESSION: SESSION });
    assert.equal(r.code, 1);
    assert.equal(r.json.stop_reason, 'AGENT_FAILED');
    assert.match(r.json.reviewer.findings[0], /^coder edited the ledger: .*harness-1\.json changed/);
    const ledger = readLedger(repo, SESSION);
    assert.equal(ledger.iterations.length, 0, 'no iteration recorded into an edited ledger');
    // The epoch is closed as the receipt's BLOCKED/AGENT_FAILED maps: escalate, naming the edit.
    assert.equal(ledger.status, 'closed');
    assert.equal(ledger.final_outcome, 'escalate');
    assert.match(ledger.close_blocker, /^AGENT_FAILED: coder edited the ledger: /);
    assert.equal(ledger.close_evidence, `${r.json.artifacts.run_dir}/final-receipt.json`);
    assert.match(ledger.close_note, /no iteration recorded for its last attempt/);
    // So the session's next run is its next epoch, not "close it first".
    const next = runSample(repo, 'pass', ['--session', SESSION, '--no-require-clean']);
    assert.equal(next.code, 0, next.stderr);
    assert.equal(readLedger(repo, SESSION).epoch, 2);
  });

  it('an agent that breaks the ledger: the receipt stands, the epoch cannot be closed and stderr says so', () => {
    const repo = sampleRepo();
    const r = runSample(repo, 'coder-breaks-ledger', ['--session', SESSION], { FIXTURE_SESSION: SESSION });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.stop_reason, 'AGENT_FAILED');
    assert.match(r.stderr, /harness-1: the run's epoch was not closed \(.*ledger.*\); close it yourself/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  });

  it('a run file the harness cannot write ends the run: AGENT_FAILED naming the write, the epoch closed', () => {
    const repo = sampleRepo();
    const r = runSample(repo, 'coder-links-attempt-folder', ['--session', SESSION]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.json.final_verdict, 'BLOCKED');
    assert.equal(r.json.stop_reason, 'AGENT_FAILED');
    assert.match(
      r.json.reviewer.findings[0],
      /^artifact write failed: artifact parent is a symlink: .*attempts\/01$/,
    );
    assert.deepEqual(r.json.checks, [], 'no check ran after the refused write');
    assert.ok(existsSync(join(repo, r.json.artifacts.run_dir, 'final-receipt.json')));
    const ledger = readLedger(repo, SESSION);
    assert.equal(ledger.iterations.length, 0, 'the attempt is not recorded as an iteration');
    assert.equal(ledger.status, 'closed');
    assert.equal(ledger.final_outcome, 'escalate');
    assert.match(ledger.close_blocker, /^AGENT_FAILED: artifact write failed: /);
  });

  it('resume after SIGKILL mid-attempt: continues at the first unrecorded step, repeats none', async () => {
    const repo = sampleRepo();
    const pidFile = join(tempRoot('pid-'), 'coder.pid');
    const env = { LOOP_FIXTURE_MODE: 'coder-slow-once', FIXTURE_PID_FILE: pidFile };
    const child = startLoop(repo, sampleArgs(), env);
    await waitFor(() => existsSync(pidFile) && readText(pidFile) !== '');
    const coderPid = Number(readText(pidFile));
    // A crash of the whole machine: the harness and the agent's group die at once.
    child.kill('SIGKILL');
    process.kill(-coderPid, 'SIGKILL');
    await exited(child);
    const dir = onlyRunDir(repo);
    assert.ok(!existsSync(join(dir, 'final-receipt.json')));
    const before = readLedger(repo, SESSION);
    assert.equal(before.iterations.length, 1, 'attempt 1 was recorded, attempt 2 was not');
    const explorerMtime = statSync(join(dir, 'explorer/explorer-stdout.txt')).mtimeMs;

    const again = startLoop(repo, sampleArgs(), { ...env, FIXTURE_NO_SLEEP: '1' });
    let stdout = '';
    again.stdout?.on('data', (d) => (stdout += d));
    assert.equal(await exited(again), 0);
    const receipt = JSON.parse(stdout);
    assert.equal(receipt.final_verdict, 'PASS');
    assert.equal(receipt.attempts_used, 2);
    assert.equal(onlyRunDir(repo), dir, 'the same run continued');
    assert.equal(
      statSync(join(dir, 'explorer/explorer-stdout.txt')).mtimeMs,
      explorerMtime,
      'explorer not re-run',
    );
    assert.ok(
      readdirSync(join(dir, 'attempts')).some((n) => /^\.02\.interrupted-/.test(n)),
      'partial attempt kept aside',
    );
    const after = readLedger(repo, SESSION);
    assert.equal(after.iterations.length, 2);
    const actions: string[] = after.completed_actions;
    assert.equal(new Set(actions).size, actions.length, 'no action recorded twice');
    assert.equal(actions.filter((a) => a.endsWith('/01/coder')).length, 1);
    const prompt = readJson(join(dir, 'attempts/02/coder-prompt.md'));
    assert.deepEqual(prompt.previous_findings, ['attempt one is wrong', 'deterministic checks failed']);
    assert.equal(prompt.explorer_result.summary, 'parse durations');
  });

  it('cancel (SIGINT): the agent group is killed, cancelled.json written, pause recorded; the session resumes', async () => {
    const repo = sampleRepo();
    const pidFile = join(tempRoot('pid-'), 'coder.pid');
    const child = startLoop(repo, sampleArgs(), {
      LOOP_FIXTURE_MODE: 'coder-slow',
      FIXTURE_PID_FILE: pidFile,
    });
    await waitFor(() => existsSync(pidFile) && readText(pidFile) !== '');
    const coderPid = Number(readText(pidFile));
    child.kill('SIGINT');
    assert.equal(await exited(child), 130);
    await waitFor(() => !alive(coderPid), 5000);
    const dir = onlyRunDir(repo);
    const marker = readJson(join(dir, 'cancelled.json'));
    assert.equal(marker.attempt, 1);
    assert.equal(marker.phase, 'coder');
    assert.ok(!existsSync(join(dir, 'final-receipt.json')), 'no receipt: no stop reason fits a cancel');
    const paused = readLedger(repo, SESSION);
    assert.equal(paused.status, 'closed');
    assert.equal(paused.final_outcome, 'pause');
    assert.equal(paused.iterations.length, 0);

    const resumed = runSample(repo, 'pass', ['--session', SESSION]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(onlyRunDir(repo), dir);
    const ledger = readLedger(repo, SESSION);
    assert.equal(ledger.resumed, 1);
    assert.equal(ledger.final_outcome, 'complete');
    assert.ok(!existsSync(join(dir, 'cancelled.json')), 'the marker is set aside on resume');
  });

  it('resuming with a different request is refused', async () => {
    const repo = sampleRepo();
    const pidFile = join(tempRoot('pid-'), 'coder.pid');
    const child = startLoop(repo, sampleArgs(), {
      LOOP_FIXTURE_MODE: 'coder-slow',
      FIXTURE_PID_FILE: pidFile,
    });
    await waitFor(() => existsSync(pidFile) && readText(pidFile) !== '');
    child.kill('SIGINT');
    await exited(child);
    const r = runSample(repo, 'pass', ['--session', SESSION, '--max-attempts', '2']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unfinished with a different --max-attempts/);
  });
});
