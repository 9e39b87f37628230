// `loop-ledger resume` on a session whose repeat is unfinished continues the repeat (same driver,
// same claim, same exit codes as `repeat --session S`); on any other session it is unchanged.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertNoStack } from '../cli/setup';
import { runCli, sampleContract, tempRoot, writeJson } from '../helpers/cli';
import { classifications, workspace, type PlannedRun } from './workspace';

const NONE = 'Analysis complete. No recommendations.';
const STUCK = 'Recommend extracting a shared validator; verification failed';
const edit = (file: string, content: string): PlannedRun => ({
  summary: `Applied an edit to ${file}`,
  files: { [file]: content },
});

/** Alive and not a zombie (this container's init does not reap orphans). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('resume continues an unfinished repeat', () => {
  it('SIGKILL mid-repeat, then resume: the orphaned step is ended, the loop finishes (exit 0)', async () => {
    const ws = workspace('git');
    const marker = join(ws.root, '..', 'started');
    ws.setPlan([
      edit('a', '1'),
      { summary: 'never finishes', sleepMs: 60_000, startedMarker: marker },
      { summary: NONE },
    ]);
    const { child, done } = ws.repeatAsync('--spec', ws.step);
    for (let i = 0; i < 200 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(existsSync(marker), 'the second run started');
    const orphan = Number(readFileSync(marker, 'utf8'));
    child.kill('SIGKILL');
    await done;
    assert.equal(ws.ledger().repeat.status, 'running');
    assert.ok(running(orphan), 'the orphaned step outlived the driver');
    ws.setPlan([edit('a', '1'), { summary: NONE }, { summary: NONE }]);
    const resumed = ws.resume('--json');
    assert.equal(resumed.code, 0, resumed.stderr);
    assertNoStack(resumed.stderr);
    assert.equal(resumed.json.exit_reason, 'settled', 'the repeat report, not the plain resume payload');
    assert.match(resumed.json.notes[0], /was still running: ended; it is run again/);
    assert.ok(!running(orphan), 'the orphan is gone');
    assert.deepEqual(classifications(ws.ledger()), ['continuing', 'settled']);
    assert.equal(ws.ledger().final_outcome, 'complete');
    // Finished: the next resume is the plain one again (a closed, complete loop is refused as before).
    const plain = ws.resume('--json');
    assert.equal(plain.code, 3, plain.stderr);
    assert.equal(plain.json, undefined);
  });

  it('a paused repeat: resume asks nothing without a TTY (exit 11); resume --answer skip continues to a settle', () => {
    const ws = workspace('fs');
    ws.setPlan([
      { summary: STUCK },
      { summary: STUCK },
      { summary: STUCK },
      edit('b', '1'),
      { summary: NONE },
    ]);
    const paused = ws.repeat('--json', '--spec', ws.step);
    assert.equal(paused.code, 11, paused.stderr);
    assert.equal(ws.ledger().final_outcome, 'pause');

    const still = ws.resume('--json');
    assert.equal(still.code, 11, still.stderr);
    assert.equal(still.json.question.kind, 'stall-first');
    assert.equal(ws.log().length, 3, 'nothing runs while the question is open');
    assert.equal(ws.ledger().status, 'closed', 'the plain resume did not re-open the paused loop');
    assert.equal(ws.ledger().resumed, 0);

    const unclear = ws.resume('--answer', 'sure');
    assert.equal(unclear.code, 2);
    assert.match(unclear.stderr, /I read that as retry — please confirm/);
    assertNoStack(unclear.stderr);

    const human = ws.resume('--answer', 'skip');
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /repeat 4: continuing/);
    assert.match(human.stdout, /Settled/);
    const ledger = ws.ledger();
    assert.equal(ledger.repeat.resolutions['3'], 'skipped');
    assert.equal(ledger.final_outcome, 'complete');
    assert.deepEqual(classifications(ledger), ['stalled', 'stalled', 'stalled', 'continuing', 'settled']);
    assert.match(ws.log()[3]?.directive ?? '', /deferred the recommendation/);
  });

  it('the follow-up question after a Stay is answered through resume (decline: not run, exit 0)', () => {
    const ws = workspace('fs');
    ws.setPlan([
      edit('p.js', 'early-return'),
      { summary: 'Rewrite as a ternary: more compact', files: { 'p.js': 'ternary' } },
      edit('p.js', 'early-return'),
    ]);
    const r = ws.repeat('--json', '--then', 'touch ../followed', '--', 'sh', '-c', ws.step);
    assert.equal(r.code, 11, r.stderr);
    assert.equal(r.json.question.kind, 'follow-up');
    const declined = ws.resume('--answer', 'decline', '--json');
    assert.equal(declined.code, 0, declined.stderr);
    assert.equal(declined.json.follow_up.ran, false);
    assert.match(declined.json.follow_up.reason, /declined/);
    assert.ok(!existsSync(join(ws.root, '..', 'followed')));
    assert.equal(ws.ledger().repeat.pending, null);
  });

  it('other sessions: resume is unchanged, and the repeat-only flags are refused in one line (exit 2)', () => {
    const root = tempRoot('loop-ledger-resume-plain-');
    const contract = writeJson(join(root, 'c.json'), sampleContract());
    assert.equal(runCli(['open', '--root', root, '--session', 's', '--contract', contract]).code, 0);
    assert.equal(runCli(['close', '--root', root, '--session', 's', '--outcome', 'pause']).code, 0);
    const answered = runCli(['resume', '--root', root, '--session', 's', '--answer', 'skip']);
    assert.equal(answered.code, 2);
    assert.equal(answered.stderr.trim().split('\n').length, 1);
    assert.match(answered.stderr, /--answer is only for a session whose repeat is unfinished; s has none/);
    const resumed = runCli(['resume', '--root', root, '--session', 's', '--json']);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.json.status, 'open');
    assert.equal(resumed.json.resumed, 1);
  });
});
