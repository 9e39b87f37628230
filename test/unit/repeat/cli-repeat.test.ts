import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertNoStack } from '../cli/setup';
import { classifications, STEP, workspace, type PlannedRun } from './workspace';

/** Alive and not a zombie (this container's init does not reap orphans). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const NONE = 'Analysis complete. No recommendations.';
const STUCK = 'Recommend extracting a shared validator; verification failed';
const edit = (file: string, content: string, summary = `Applied an edit to ${file}`): PlannedRun => ({
  summary,
  files: { [file]: content },
});
const concerns = (...c: string[]) =>
  JSON.stringify({ summary: 'formatPath style', concerns: c, recommendations: ['restyle'] });

for (const kind of ['fs', 'git'] as const) {
  describe(`repeat CLI (${kind} workspace)`, () => {
    it('settles at 3: one iterate per run, repeat record keys, follow-up run, exit 0', () => {
      const ws = workspace(kind);
      ws.setPlan([
        edit('src/a.txt', 'one', 'Applied 8 recommendations'),
        edit('src/a.txt', 'two', 'Applied 2 follow-on fixes'),
        { summary: NONE },
      ]);
      const r = ws.repeat('--json', '--then', 'echo released > ../released.txt', '--', 'node', STEP);
      assert.equal(r.code, 0, r.stderr);
      assertNoStack(r.stderr);
      assert.equal(r.json.exit_reason, 'settled');
      assert.equal(r.json.summary.header, 'Convergence summary');
      assert.deepEqual(
        r.json.summary.log.map((row: { outcome: string }) => row.outcome),
        ['continuing', 'continuing', 'settled'],
      );
      assert.equal(r.json.follow_up.ran, true);
      assert.equal(readFileSync(join(ws.root, '..', 'released.txt'), 'utf8').trim(), 'released');
      const ledger = ws.ledger();
      assert.equal(ledger.status, 'closed');
      assert.equal(ledger.final_outcome, 'complete');
      assert.deepEqual(classifications(ledger), ['continuing', 'continuing', 'settled']);
      assert.deepEqual(ledger.completed_actions, ['repeat-1', 'repeat-2', 'repeat-3']);
      const first = ledger.iterations[0];
      assert.deepEqual(first.files_changed, ['src/a.txt']);
      assert.match(first.commands_run[0], /step\.mjs/);
      assert.match(first.note, /^continuing: Applied 8 recommendations/);
      assert.ok(first.state_hash);
      assert.equal(first.repeat.state.startsWith(`${kind}:`), true);
      assert.match(first.repeat.change_metric, kind === 'fs' ? /0 changed, 1 added/ : /new untracked file/);
      assert.equal(ledger.repeat.status, 'finished');
      assert.equal(ledger.repeat.convergence.exit_reason, 'settled');
      assert.equal(ledger.repeat.follow_up_result.exit_code, 0);
      // the ledger and state file live in .loop/, which no capture sees: otherwise nothing settles
      assert.ok(existsSync(join(ws.root, '.loop', 'repeat', 'rep.md')));
    });

    it('stalls 3× → first pause (exit 11, question file); --answer continues; 6 stalls → deeper; abandon → exit 10', () => {
      const ws = workspace(kind);
      ws.setPlan([{ summary: STUCK }]);
      const first = ws.repeat('--spec', `${ws.step} then release`);
      assert.equal(first.code, 11, first.stderr);
      assert.match(first.stdout, /Stalled after 3 consecutive iterations/);
      assert.match(first.stdout, /- retry — /);
      const paused = ws.ledger();
      assert.equal(paused.final_outcome, 'pause');
      assert.equal(paused.repeat.status, 'paused');
      assert.equal(paused.repeat.exit_reason, 'indeterminate');
      assert.deepEqual(classifications(paused), ['stalled', 'stalled', 'stalled']);
      const questionFile = readFileSync(join(ws.root, '.loop', 'repeat', 'rep.md'), 'utf8');
      assert.match(questionFile, /## Open question/);
      assert.match(questionFile, /--answer WORD` \(WORD: retry, skip, abandon, change-scope\)/);

      const unclear = ws.repeat('--answer', 'sure');
      assert.equal(unclear.code, 2);
      assert.match(unclear.stderr, /I read that as retry — please confirm/);
      assert.equal(ws.ledger().final_outcome, 'pause', 'an unclear answer changes nothing');

      const retried = ws.repeat('--answer', 'retry', '--json');
      assert.equal(retried.code, 11, retried.stderr);
      assert.equal(retried.json.question.kind, 'stall-deeper');
      assert.deepEqual(retried.json.question.options, ['skip', 'change-scope', 'abandon']);
      const ledger = ws.ledger();
      assert.equal(ledger.repeat.total_stalls, 6);
      assert.equal(ledger.resumed, 1);
      assert.equal(ledger.repeat.resolutions['3'], 'retried');

      const noRetry = ws.repeat('--answer', 'retry');
      assert.equal(noRetry.code, 2);
      assert.match(noRetry.stderr, /not one of skip \/ change-scope \/ abandon/);

      const abandoned = ws.repeat('--answer', 'abandon');
      assert.equal(abandoned.code, 10, abandoned.stderr);
      assert.match(abandoned.stdout, /## Partial convergence/);
      assert.match(abandoned.stdout, /Partial: abandoned at stall pause/);
      assert.match(abandoned.stdout, /## Why partial/);
      assert.match(abandoned.stdout, /Follow-up `release`: not run/);
      assert.equal(ws.ledger().final_outcome, 'stop');
      assert.equal(ws.log().length, 6, 'no run after the answers that ended the loop');
    });

    it('A→B→A cycle with similar summaries → Settled-via-cycle (Stay); the follow-up question is kept; --answer run runs it', () => {
      const ws = workspace(kind);
      ws.setPlan([
        edit(
          'lib/path.js',
          'early-return',
          'Extract early-return style in formatPath: clearer for extension',
        ),
        edit('lib/path.js', 'ternary', 'Rewrite formatPath as a ternary: more compact'),
        edit(
          'lib/path.js',
          'early-return',
          'Extract early-return style in formatPath, clearer for extension',
        ),
      ]);
      const r = ws.repeat('--json', '--then', 'touch ../followed', '--', 'sh', '-c', ws.step);
      assert.equal(r.code, 11, `waiting for the follow-up's answer: ${r.stderr}`);
      assert.equal(r.json.exit_reason, 'settled-via-cycle');
      assert.equal(r.json.status, 'finished');
      assert.deepEqual(
        r.json.summary.log.map((x: { resolution: string }) => x.resolution),
        ['—', '—', 'stay'],
      );
      assert.equal(r.json.follow_up.ran, false);
      assert.match(r.json.follow_up.reason, /waiting for an answer/);
      assert.equal(r.json.question.kind, 'follow-up');
      assert.deepEqual(r.json.question.options, ['run', 'decline']);
      assert.ok(!existsSync(join(ws.root, '..', 'followed')));
      const kept = ws.ledger();
      assert.equal(kept.iterations[2].repeat.cycle_with, 1);
      assert.equal(kept.final_outcome, 'complete', 'the loop itself settled');
      assert.equal(kept.repeat.pending.kind, 'follow-up');
      assert.match(kept.repeat.pending.text, /touch \.\.\/followed/);
      const stateFile = readFileSync(join(ws.root, '.loop', 'repeat', 'rep.md'), 'utf8');
      assert.match(stateFile, /## Open question/);
      assert.match(stateFile, /--answer WORD` \(WORD: run, decline\)/);
      // A new repeat is refused while the question is open: nothing is lost by starting over.
      const another = ws.repeat('--spec', 'true');
      assert.equal(another.code, 3, another.stderr);
      assert.match(another.stderr, /follow-up waiting for an answer/);
      const answered = ws.repeat('--answer', 'run', '--json');
      assert.equal(answered.code, 0, answered.stderr);
      assert.equal(answered.json.follow_up.ran, true);
      assert.equal(answered.json.question, null);
      assert.ok(existsSync(join(ws.root, '..', 'followed')), 'the follow-up ran once confirmed');
      assert.equal(ws.log().length, 3, 'answering the follow-up runs no further iteration');
      const done = ws.ledger();
      assert.equal(done.repeat.pending, null);
      assert.equal(done.repeat.follow_up_result.exit_code, 0);
      const again = ws.repeat('--answer', 'run');
      assert.equal(again.code, 3, 'nothing is waiting any more');
    });

    it('forward escape: the directive reaches the next run in LOOP_LEDGER_DIRECTIVE; a later settle is a clean exit', () => {
      const ws = workspace(kind);
      ws.setPlan([
        { summary: concerns('readability'), files: { 'f.js': 'A' } },
        { summary: concerns('readability', 'unused-param'), files: { 'f.js': 'B' } },
        { summary: concerns('readability'), files: { 'f.js': 'A' } },
        edit('f.js', 'B2', 'Removed the unused parameter'),
        { summary: NONE },
      ]);
      const r = ws.repeat('--json', '--spec', ws.step);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json.exit_reason, 'forward-escape-resolved');
      const log = ws.log();
      assert.equal(log[2]?.directive, null);
      assert.match(
        log[3]?.directive ?? '',
        /oscillated .* State B is preferred because it also covers unused-param/,
      );
      assert.equal(log[4]?.directive, null);
      assert.equal(ws.ledger().iterations[3].repeat.directive, log[3]?.directive);
    });

    it('forward escape that fails twice surfaces (exit 11); abandon → "forward-escape failed", exit 10', () => {
      const ws = workspace(kind);
      ws.setPlan([
        { summary: concerns('readability'), files: { 'f.js': 'A' } },
        { summary: concerns('readability', 'unused-param'), files: { 'f.js': 'B' } },
        { summary: concerns('readability'), files: { 'f.js': 'A' } },
        { summary: concerns('readability', 'unused-param'), files: { 'f.js': 'C' } },
        { summary: concerns('readability'), files: { 'f.js': 'A' } },
      ]);
      const r = ws.repeat('--json', '--spec', ws.step);
      assert.equal(r.code, 11, r.stderr);
      assert.equal(r.json.question.kind, 'cycle');
      assert.equal(r.json.question.escape_failed, true);
      assert.deepEqual(r.json.question.options, ['stay', 'forward-escape', 'abandon']);
      const end = ws.repeat('--answer', 'abandon', '--json');
      assert.equal(end.code, 10);
      assert.equal(end.json.exit_reason, 'forward-escape-failed');
    });

    it('--max caps the runs: exactly N, then Partial: max-cap (exit 10, ledger stop)', () => {
      const ws = workspace(kind);
      ws.setPlan([edit('a', '1'), edit('a', '2'), edit('a', '3')]);
      const r = ws.repeat('--max', '2', '--json', '--', 'sh', '-c', ws.step);
      assert.equal(r.code, 10, r.stderr);
      assert.equal(r.json.exit_reason, 'max-cap');
      assert.equal(ws.log().length, 2);
      assert.equal(ws.ledger().final_outcome, 'stop');
    });

    it('SIGKILL mid-run: the ledger keeps what was recorded; repeat --session S ends the orphaned step and finishes', async () => {
      const ws = workspace(kind);
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
      const crashed = ws.ledger();
      assert.equal(crashed.status, 'open');
      assert.equal(crashed.repeat.status, 'running');
      assert.equal(crashed.iterations.length, 1);
      assert.ok(running(orphan), 'the orphaned step is still running');
      ws.setPlan([edit('a', '1'), { summary: NONE }, { summary: NONE }]);
      const resumed = ws.repeat('--json');
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.match(resumed.json.notes[0], /was still running: ended; it is run again/);
      assert.ok(!running(orphan), 'the orphan is gone');
      assert.deepEqual(classifications(ws.ledger()), ['continuing', 'settled']);
    });
  });
}

describe('repeat CLI: races and cancels', () => {
  it('a step that leaves a background helper holding its stdout ends when the shell exits; the helper goes with its group', () => {
    const ws = workspace('fs');
    ws.setPlan([edit('a', '1'), { summary: NONE }]);
    const bg = join(ws.root, '..', 'bg');
    // Held until the 3 s timeout, each run would be recorded as killed (exit code null).
    const r = ws.repeat('--json', '--timeout', '3', '--spec', `sleep 600 & echo $! > ../bg; ${ws.step}`);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.exit_reason, 'settled');
    assert.deepEqual(
      ws.ledger().iterations.map((i: { repeat: { exit_code: number | null } }) => i.repeat.exit_code),
      [0, 0],
      'each run ended with its shell, not at the timeout',
    );
    assert.ok(!running(Number(readFileSync(bg, 'utf8'))), 'the helper was ended with the step');
  });

  it('a second repeat on a session while one runs is refused (exit 3), and does not touch its step', async () => {
    const ws = workspace('fs');
    const marker = join(ws.root, '..', 'started');
    ws.setPlan([
      { summary: 'slow', sleepMs: 3_000, startedMarker: marker, files: { a: '1' } },
      { summary: NONE },
    ]);
    const first = ws.repeatAsync('--json', '--spec', ws.step);
    for (let i = 0; i < 200 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 50));
    const step = Number(readFileSync(marker, 'utf8'));
    const again = ws.repeat();
    assert.equal(again.code, 3, again.stderr);
    assert.match(again.stderr, /a repeat is already running for this session \(pid \d+\)/);
    const another = ws.repeat('--spec', 'true');
    assert.equal(another.code, 3);
    assert.ok(running(step), 'the running step was left alone');
    const done = await first.done;
    assert.equal(done.code, 0, done.stderr);
    assert.equal(done.json.exit_reason, 'settled');
  });

  it('SIGINT stops the running step, records pause without recording the run; repeat --session S continues', async () => {
    const ws = workspace('git');
    const marker = join(ws.root, '..', 'started');
    ws.setPlan([edit('a', '1'), { summary: 'slow', sleepMs: 30_000, startedMarker: marker }]);
    const run = ws.repeatAsync('--json', '--spec', ws.step);
    for (let i = 0; i < 200 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 50));
    const step = Number(readFileSync(marker, 'utf8'));
    run.child.kill('SIGINT');
    const stopped = await run.done;
    assert.equal(stopped.code, 11, stopped.stderr);
    assert.match(stopped.json.notes[0], /cancelled during iteration 2/);
    assert.ok(!running(step), 'the step was stopped with its group');
    const ledger = ws.ledger();
    assert.equal(ledger.final_outcome, 'pause');
    assert.equal(ledger.iterations.length, 1);
    assert.equal(ledger.repeat.status, 'running');
    ws.setPlan([edit('a', '1'), { summary: NONE }, { summary: NONE }]);
    const resumed = ws.repeat('--json');
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(classifications(ws.ledger()), ['continuing', 'settled']);
    assert.equal(ws.ledger().resumed, 1);
  });
});

describe('repeat CLI: refusals and specifics', () => {
  it('usage errors exit 2 with one line, no stack trace, and touch nothing', () => {
    const ws = workspace('fs');
    const cases: [string[], RegExp][] = [
      [['--spec', 'tidy max=0'], /max=0 must allow at least one iteration/],
      [['--spec', 'tidy max=x'], /max=x is not a whole number/],
      [['--spec', 'tidy max=2 max=3'], /max= given 2 times/],
      [['--spec', 'tidy', '--', 'tidy'], /--spec and an inner command after -- are exclusive/],
      [['--spec', 'tidy', '--max', '3'], /inside --spec write max=N/],
      [['--max', '0', '--', 'tidy'], /--max 0: must be a whole number ≥ 1/],
      [['--recipe', 'svn', '--', 'tidy'], /--recipe svn: choose git or fs/],
      [['--bogus'], /Unknown option '--bogus'/],
      [['--answer', 'retry'], /no repeat to continue/],
    ];
    for (const [args, message] of cases) {
      const r = ws.repeat(...args);
      assert.ok(r.code === 2 || r.code === 3, `${args.join(' ')} → ${r.code}`);
      assert.match(r.stderr, message);
      assertNoStack(r.stderr);
    }
    assert.equal(ws.ledger().iterations.length, 0);
    assert.equal(ws.ledger().repeat, undefined);
  });

  it('no ledger → exit 2; a repeat in progress refuses a second one (exit 3)', () => {
    const ws = workspace('fs');
    const none = ws.repeat('--session', 'other', '--spec', 'true');
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no ledger/);
    ws.setPlan([{ summary: STUCK }]);
    assert.equal(ws.repeat('--spec', ws.step).code, 11);
    const second = ws.repeat('--spec', ws.step);
    assert.equal(second.code, 3);
    assert.match(second.stderr, /a repeat is paused .*--answer WORD/);
  });

  it('--summary-file: the summary comes from the file, which is not part of the captured state', () => {
    const ws = workspace('fs');
    ws.setPlan([
      { summary: 'Applied fixes', files: { x: '1' }, summaryFile: 'out/summary.txt' },
      { summary: 'No findings.', summaryFile: 'out/summary.txt' },
    ]);
    const r = ws.repeat('--summary-file', 'out/summary.txt', '--json', '--', 'sh', '-c', ws.step);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.exit_reason, 'settled');
    assert.equal(r.json.iterations, 2);
  });

  it('--scope and --exclude limit what counts as a change', () => {
    const ws = workspace('fs');
    // Every run rewrites a log file out of scope: only src/ counts, so the loop settles.
    ws.setPlan([
      { summary: 'Applied', files: { 'src/a': '1', 'logs/run.log': 'a' } },
      { summary: 'Nothing to change', files: { 'logs/run.log': 'b' } },
    ]);
    const r = ws.repeat('--scope', 'src', '--json', '--', 'sh', '-c', ws.step);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.iterations, 2);
    const ex = workspace('fs');
    ex.setPlan([
      { summary: 'Applied', files: { 'src/a': '1', 'tmp/x.log': 'a' } },
      { summary: 'Nothing to change', files: { 'tmp/x.log': 'b' } },
    ]);
    const r2 = ex.repeat('--exclude', '*.log', '--json', '--', 'sh', '-c', ex.step);
    assert.equal(r2.code, 0, r2.stderr);
    assert.equal(r2.json.iterations, 2);
  });

  it('git: a repository with no commits yet captures an empty HEAD; commits by the step are changes', () => {
    const ws = workspace('git', { commit: false });
    ws.setPlan([
      { summary: 'Committed the first version', files: { 'a.txt': '1' }, commit: 'first' },
      { summary: 'No recommendations' },
    ]);
    const r = ws.repeat('--json', '--', 'sh', '-c', ws.step);
    assert.equal(r.code, 0, r.stderr);
    const first = ws.ledger().iterations[0].repeat;
    assert.match(first.change_metric, /^commits: /);
    assert.ok(ws.ledger().repeat.start_state.startsWith('git:-:'));
  });

  it('a malformed repeat key in the ledger is refused (exit 2) naming each bad key, and left as it is', () => {
    const ws = workspace('fs');
    const path = join(ws.root, '.loop', 'ledgers', 'rep.json');
    const ledger = ws.ledger();
    ledger.repeat = { status: 'sleeping', inner: '', iteration: -1 };
    writeFileSync(path, JSON.stringify(ledger, null, 2));
    const before = readFileSync(path, 'utf8');
    const r = ws.repeat('--answer', 'retry');
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /ledger key "repeat.status" must be running, paused or finished/);
    assert.match(r.stderr, /ledger key "repeat.inner" must be a non-empty command/);
    assert.match(r.stderr, /ledger key "repeat.iteration" must be a whole number/);
    assertNoStack(r.stderr);
    assert.equal(readFileSync(path, 'utf8'), before);
  });

  it('--answer change-scope takes the new scope; the loop continues over it', () => {
    const ws = workspace('fs');
    // Every run rewrites logs/run.log and reports work: over the whole root it never settles.
    ws.setPlan([
      { summary: STUCK },
      { summary: STUCK },
      { summary: STUCK },
      { summary: 'Nothing to change', files: { 'logs/run.log': 'x' } },
      { summary: 'Nothing to change', files: { 'logs/run.log': 'y' } },
    ]);
    assert.equal(ws.repeat('--', 'sh', '-c', ws.step).code, 11);
    const missing = ws.repeat('--answer', 'change-scope');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /change-scope needs the new target/);
    const r = ws.repeat('--answer', 'change-scope', '--exclude', 'logs', '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.exit_reason, 'settled');
    assert.deepEqual(ws.ledger().repeat.exclude, ['logs']);
    assert.ok(
      ws.ledger().repeat.events.some((e: string) => /user chose change scope \(exclude logs\)/.test(e)),
    );
  });

  it('the contract iteration_limit caps a repeat without max=', () => {
    const ws = workspace('fs', { iterationLimit: 2 });
    ws.setPlan([edit('a', '1'), edit('a', '2'), edit('a', '3')]);
    const r = ws.repeat('--json', '--', 'sh', '-c', ws.step);
    assert.equal(r.code, 10, r.stderr);
    assert.equal(r.json.exit_reason, 'max-cap');
    assert.equal(ws.log().length, 2);
  });
});
