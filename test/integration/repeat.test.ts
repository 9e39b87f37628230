// "Repeat Until Settled…" inside a real VS Code: the spec from the quick input, a scripted inner
// step (test/fixtures/repeat/step.mjs, run by the extension host's own node), a stall pause
// answered in the quick pick, a dismissed pause left resumable from the tree.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { openOp } from '../../src/app/contract/operations';
import { closeOp } from '../../src/app/ledger/operations';
import type { RepeatCommandReport } from '../../src/extension/repeat/repeatCommand';
import type { LoopLedgerApi } from '../../src/extension/extension';
import { ScriptedPrompter, type ScriptedAnswer } from '../hooks/scriptedPrompter';
import { sessionDescription } from '../../src/extension/sessions/labels';
import { extensionPath, loopLedgerApi, testingApi, waitFor, workspaceRoot } from './sessionsHelpers';

const STUCK = 'Recommend extracting a shared validator; verification failed';
const NONE = 'Analysis complete. No recommendations.';

/** Alive and not a zombie (the container's init may not reap orphans). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The `viewItem =~ /…/` of Resume's entry in the session's context menu, as package.json declares it. */
function resumeMenuWhen(): RegExp {
  const manifest = JSON.parse(readFileSync(join(extensionPath(), 'package.json'), 'utf8'));
  const entry = manifest.contributes.menus['view/item/context'].find(
    (m: { command: string }) => m.command === 'loopLedger.resume',
  );
  const pattern = /viewItem =~ \/(.*)\/ &&/.exec(entry.when)?.[1];
  assert.ok(pattern, entry.when);
  return new RegExp(pattern);
}

describe('Repeat Until Settled, in a real VS Code', () => {
  let api: LoopLedgerApi;
  let root: string;
  let outside: string;
  const sessions: string[] = [];
  const ledger = (session: string) =>
    JSON.parse(readFileSync(join(root, '.loop', 'ledgers', `${session}.json`), 'utf8'));

  /** Opens `session` and scripts the step's runs; returns the spec text a person would type. */
  function prepare(session: string, runs: object[]): string {
    sessions.push(session);
    const contract = join(outside, `${session}.contract.json`);
    writeFileSync(
      contract,
      JSON.stringify({
        purpose: 'Tidy the demo folder until nothing is left',
        owner: 'tests',
        starting_state: 'untidy',
        inputs: ['repeat-demo'],
        expected_outputs: ['a tidy folder'],
        success_criteria: ['no recommendations'],
        failure_criteria: ['a stall'],
        dependencies: ['node'],
        iteration_limit: 20,
        timeout_behaviour: 'pause',
        escalation_path: 'ask the owner',
        quality_rubric: [
          {
            dimension: 'left',
            evidence_command: 'echo 0',
            baseline: 5,
            target: 0,
            weight: 1,
            failure_threshold: 10,
            direction: 'lower-is-better',
            hard_gate: false,
          },
        ],
      }),
    );
    const opened = openOp(root, session, { contractPath: contract, now: new Date() });
    assert.equal(opened.exitCode, 0, JSON.stringify(opened.findings));
    const plan = join(outside, `${session}.plan.json`);
    writeFileSync(plan, JSON.stringify(runs));
    // The step runs in the extension host's environment: this process.
    process.env.REPEAT_PLAN = plan;
    const step = join(extensionPath(), 'test', 'fixtures', 'repeat', 'step.mjs');
    return `"${process.execPath}" "${step}" max=8`;
  }

  async function run(script: ScriptedAnswer[], argument: unknown, command = 'loopLedger.repeatUntilSettled') {
    const prompter = new ScriptedPrompter(script);
    const using = (await testingApi()).prompter.use(prompter);
    try {
      const report = (await vscode.commands.executeCommand(command, argument)) as RepeatCommandReport;
      assert.deepEqual(prompter.remaining, [], 'unused scripted answers');
      return { report, prompter };
    } finally {
      using.dispose();
    }
  }

  before(async () => {
    api = await loopLedgerApi();
    root = workspaceRoot();
    outside = mkdtempSync(join(tmpdir(), 'loop-ledger-repeat-it-'));
  });
  after(async () => {
    for (const session of sessions)
      rmSync(join(root, '.loop', 'ledgers', `${session}.json`), { force: true });
    rmSync(join(root, '.loop', 'repeat'), { recursive: true, force: true });
    rmSync(join(root, 'repeat-demo'), { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
    delete process.env.REPEAT_PLAN;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.sessions.refreshAll();
  });

  it('repeats to a settle from the palette; the tree shows the state; the summary opens', async () => {
    const spec = prepare('repeat-settle', [
      { summary: 'Applied 3 recommendations', files: { 'repeat-demo/a.txt': 'one' } },
      { summary: 'Applied 1 follow-on fix', files: { 'repeat-demo/a.txt': 'two' } },
      { summary: NONE },
    ]);
    const { report } = await run([{ step: 'repeat.spec', text: spec }], { root, session: 'repeat-settle' });
    assert.equal(report.status, 'done', report.message);
    assert.equal(report.exitCode, 0);
    assert.match(report.message, /Settled after 3 iteration/);
    const written = ledger('repeat-settle');
    assert.equal(written.final_outcome, 'complete');
    assert.deepEqual(
      written.iterations.map((r: { repeat: { classification: string } }) => r.repeat.classification),
      ['continuing', 'continuing', 'settled'],
    );
    await api.sessions.refreshAll();
    const node = await waitFor('the session in the tree', () =>
      api.sessions.findSession(root, 'repeat-settle'),
    );
    assert.equal(node.entry.kind, 'ledger');
    if (node.entry.kind === 'ledger') assert.match(sessionDescription(node.entry), /repeat: settled/);
    await waitFor(
      'the convergence summary preview',
      () =>
        vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => /repeat-settle\.md/.test(t.label)) ||
        undefined,
      5_000,
    );
  });

  it('a stall pause is a quick pick titled with the recommendation; skip continues to a settle', async () => {
    const spec = prepare('repeat-stall', [
      { summary: STUCK },
      { summary: STUCK },
      { summary: STUCK },
      { summary: NONE },
    ]);
    const { report, prompter } = await run(
      [
        { step: 'repeat.spec', text: spec },
        { step: 'repeat.answer', pick: 'skip' },
      ],
      { root, session: 'repeat-stall' },
    );
    assert.equal(report.status, 'done', report.message);
    const question = prompter.asked.find((q) => q.id === 'repeat.answer');
    assert.ok(question);
    assert.match(question.title, /stalled ×3: retry, skip, abandon or change scope/);
    assert.deepEqual(
      question.items?.map((i) => i.label),
      ['retry', 'skip', 'abandon', 'change-scope'],
    );
    const written = ledger('repeat-stall');
    assert.equal(written.repeat.resolutions['3'], 'skipped');
    assert.equal(written.final_outcome, 'complete');
  });

  it('Cancel on the progress notification: the running step finishes and is recorded, its group is gone, pause is recorded; running it again continues', async () => {
    const started = join(outside, 'cancel-started');
    const grandchildFile = join(outside, 'cancel-grandchild');
    const spec = prepare('repeat-cancel', [
      { summary: 'Applied 2 recommendations', files: { 'repeat-demo/c.txt': 'one' } },
      {
        summary: 'Applied 1 follow-on fix',
        files: { 'repeat-demo/c.txt': 'two' },
        sleepMs: 4_000,
        startedMarker: started,
      },
      { summary: NONE },
    ]);
    // The step leaves a grandchild in its process group, as a real tool's helpers would.
    const withGrandchild = `sleep 600 & echo $! > "${grandchildFile}"; ${spec}`;
    // Only the repeat's progress is on screen, so the focused toast is the one to cancel.
    await vscode.commands.executeCommand('notifications.clearAll');
    const prompter = new ScriptedPrompter([{ step: 'repeat.spec', text: withGrandchild }]);
    const using = (await testingApi()).prompter.use(prompter);
    let report: RepeatCommandReport;
    try {
      const pending = vscode.commands.executeCommand<RepeatCommandReport>('loopLedger.repeatUntilSettled', {
        root,
        session: 'repeat-cancel',
      });
      await waitFor('the second run of the step', () => existsSync(started) || undefined, 20_000);
      const grandchild = Number(readFileSync(grandchildFile, 'utf8'));
      assert.ok(alive(grandchild), 'the grandchild runs beside the step');
      // What a person's click on the notification's Cancel button does.
      await vscode.commands.executeCommand('notifications.focusToasts');
      await vscode.commands.executeCommand('notification.acceptPrimaryAction');
      report = await pending;
      assert.equal(report.status, 'paused', report.message);
      assert.ok(!alive(grandchild), "the step's process group is gone");
    } finally {
      using.dispose();
    }
    assert.equal(report.outcome?.payload?.status, 'running');
    assert.match(report.outcome?.payload?.notes.join(' ') ?? '', /cancelled between iterations/);
    const paused = ledger('repeat-cancel');
    assert.equal(paused.final_outcome, 'pause');
    assert.equal(paused.repeat.status, 'running');
    assert.equal(paused.iterations.length, 2, 'the run Cancel waited for is recorded; no third run');
    assert.deepEqual(
      paused.iterations.map((r: { repeat: { classification: string } }) => r.repeat.classification),
      ['continuing', 'continuing'],
    );
    // Continuing from the session: no spec is asked; the loop picks up at the third run.
    const again = await run([], { root, session: 'repeat-cancel' });
    assert.equal(again.report.status, 'done', again.report.message);
    assert.equal(again.report.exitCode, 0);
    const done = ledger('repeat-cancel');
    assert.equal(done.final_outcome, 'complete');
    assert.equal(done.resumed, 1);
    assert.deepEqual(
      done.iterations.map((r: { repeat: { classification: string } }) => r.repeat.classification),
      ['continuing', 'continuing', 'settled'],
    );
  });

  it("after a Stay the follow-up's question is a quick pick; dismissed, it is kept (tree, ledger) and picked later", async () => {
    const followed = join(outside, 'followed');
    const spec = prepare('repeat-stay', [
      {
        summary: 'Extract early-return style in formatPath: clearer for extension',
        files: { 'repeat-demo/p.js': 'early-return' },
      },
      { summary: 'Rewrite formatPath as a ternary: more compact', files: { 'repeat-demo/p.js': 'ternary' } },
      {
        summary: 'Extract early-return style in formatPath, clearer for extension',
        files: { 'repeat-demo/p.js': 'early-return' },
      },
    ]).replace(/ max=8$/, ` then touch "${followed}" max=8`);
    const first = await run(
      [
        { step: 'repeat.spec', text: spec },
        { step: 'repeat.answer', cancel: true },
      ],
      { root, session: 'repeat-stay' },
    );
    assert.equal(first.report.status, 'paused', first.report.message);
    const asked = first.prompter.asked.find((q) => q.id === 'repeat.answer');
    assert.ok(asked);
    assert.match(asked.title, /settled via a cycle \(Stay\): run the follow-up or decline it/);
    assert.deepEqual(
      asked.items?.map((i) => i.label),
      ['run', 'decline'],
    );
    assert.ok(!existsSync(followed), 'not run without a yes');
    const kept = ledger('repeat-stay');
    assert.equal(kept.final_outcome, 'complete');
    assert.equal(kept.repeat.pending.kind, 'follow-up');
    await api.sessions.refreshAll();
    const node = await waitFor('the session in the tree', () =>
      api.sessions.findSession(root, 'repeat-stay'),
    );
    if (node.entry.kind === 'ledger') {
      assert.match(
        sessionDescription(node.entry),
        /repeat: cycled \(stay\), follow-up waiting for an answer/,
      );
    }
    const second = await run([{ step: 'repeat.answer', pick: 'run' }], node);
    assert.equal(second.report.status, 'done', second.report.message);
    assert.equal(second.report.exitCode, 0);
    assert.ok(existsSync(followed), 'the follow-up ran once picked');
    assert.equal(ledger('repeat-stay').repeat.pending, null);
  });

  it('a dismissed pause leaves the loop paused, shown in the tree; running it again continues', async () => {
    const spec = prepare('repeat-paused', [{ summary: STUCK }]);
    const first = await run(
      [
        { step: 'repeat.spec', text: spec },
        { step: 'repeat.answer', cancel: true },
      ],
      { root, session: 'repeat-paused' },
    );
    assert.equal(first.report.status, 'paused', first.report.message);
    assert.equal(ledger('repeat-paused').final_outcome, 'pause');
    await api.sessions.refreshAll();
    const node = await waitFor('the session in the tree', () =>
      api.sessions.findSession(root, 'repeat-paused'),
    );
    if (node.entry.kind === 'ledger') {
      assert.match(sessionDescription(node.entry), /repeat: stalled ×3, waiting for an answer/);
    }
    // From the tree node: no spec is asked, only the pending question.
    const second = await run([{ step: 'repeat.answer', pick: 'abandon' }], node);
    assert.equal(second.report.status, 'done', second.report.message);
    assert.equal(second.report.exitCode, 10);
    assert.match(second.report.message, /Partial: abandoned at stall pause/);
    assert.equal(ledger('repeat-paused').final_outcome, 'stop');
  });
  describe('Resume on a session', () => {
    it('whose repeat is paused: asks the pending question, then the repeat continues and settles', async () => {
      const spec = prepare('repeat-resume', [
        { summary: STUCK },
        { summary: STUCK },
        { summary: STUCK },
        { summary: 'Applied 1 recommendation', files: { 'repeat-demo/r.txt': 'one' } },
        { summary: NONE },
      ]);
      const first = await run(
        [
          { step: 'repeat.spec', text: spec },
          { step: 'repeat.answer', cancel: true },
        ],
        { root, session: 'repeat-resume' },
      );
      assert.equal(first.report.status, 'paused', first.report.message);
      assert.equal(ledger('repeat-resume').final_outcome, 'pause');
      await api.sessions.refreshAll();
      // The palette's Resume: the paused repeat is among the sessions offered; no spec is asked.
      const resumed = await run(
        [
          { step: 'resume.session', pick: 'repeat-resume' },
          { step: 'repeat.answer', pick: 'skip' },
        ],
        undefined,
        'loopLedger.resume',
      );
      assert.equal(resumed.report.status, 'done', resumed.report.message);
      assert.equal(resumed.report.exitCode, 0);
      assert.match(resumed.report.message, /Settled after 5 iteration/);
      const question = resumed.prompter.asked.find((q) => q.id === 'repeat.answer');
      assert.ok(question, 'the pending question is asked');
      assert.match(question.title, /stalled ×3: retry, skip, abandon or change scope/);
      const done = ledger('repeat-resume');
      assert.equal(done.status, 'closed');
      assert.equal(done.final_outcome, 'complete');
      assert.equal(done.repeat.status, 'finished');
      assert.equal(done.repeat.resolutions['3'], 'skipped');
      assert.deepEqual(
        done.iterations.map((r: { repeat: { classification: string } }) => r.repeat.classification),
        ['stalled', 'stalled', 'stalled', 'continuing', 'settled'],
      );
      await api.sessions.refreshAll();
      const node = await waitFor('the session in the tree', () =>
        api.sessions.findSession(root, 'repeat-resume'),
      );
      if (node.entry.kind === 'ledger') assert.match(sessionDescription(node.entry), /repeat: settled/);
      assert.doesNotMatch(String(api.sessions.getTreeItem(node).contextValue), resumeMenuWhen());
    });

    it('whose repeat was interrupted (the ledger still open): Resume from the tree node continues it', async () => {
      const started = join(outside, 'crash-started');
      const spec = prepare('repeat-crashed', [
        { summary: 'Applied 2 recommendations', files: { 'repeat-demo/k.txt': 'one' } },
        { summary: NONE, sleepMs: 2_000, startedMarker: started },
      ]);
      const file = join(root, '.loop', 'ledgers', 'repeat-crashed.json');
      const pending = run([{ step: 'repeat.spec', text: spec }], { root, session: 'repeat-crashed' });
      // What a window that died during the second run leaves on disk: this ledger, as it is now.
      await waitFor('the second run of the step', () => existsSync(started) || undefined, 20_000);
      const crashed = readFileSync(file, 'utf8');
      assert.equal((await pending).report.status, 'done');
      writeFileSync(file, crashed);
      const left = ledger('repeat-crashed');
      assert.equal(left.status, 'open');
      assert.equal(left.repeat.status, 'running');
      await api.sessions.refreshAll();
      const node = await waitFor('the session in the tree', () =>
        api.sessions.findSession(root, 'repeat-crashed'),
      );
      // Resume is on the open session's menu because its repeat is unfinished.
      const contextValue = String(api.sessions.getTreeItem(node).contextValue);
      assert.match(contextValue, /^session\+open\+repeatUnfinished/);
      assert.match(contextValue, resumeMenuWhen());
      const resumed = await run([], node, 'loopLedger.resume');
      assert.equal(resumed.report.status, 'done', resumed.report.message);
      assert.equal(resumed.report.exitCode, 0);
      const done = ledger('repeat-crashed');
      assert.equal(done.final_outcome, 'complete');
      assert.deepEqual(
        done.iterations.map((r: { repeat: { classification: string } }) => r.repeat.classification),
        ['continuing', 'settled'],
      );
    });

    it('without a repeat: Resume is still the plain resume (nothing run, nothing asked)', async () => {
      prepare('plain-paused', []);
      const closed = closeOp(root, 'plain-paused', { outcome: 'pause', note: 'lunch' });
      assert.equal(closed.exitCode, 0, JSON.stringify(closed.findings));
      await api.sessions.refreshAll();
      const { report, prompter } = await run([], { root, session: 'plain-paused' }, 'loopLedger.resume');
      assert.equal(report.status, 'done', report.message);
      assert.equal(prompter.asked.length, 0);
      assert.match(report.message, /plain-paused: open, next iteration 1 \(resumed 1×\)/);
      const written = ledger('plain-paused');
      assert.equal(written.status, 'open');
      assert.equal(written.resumed, 1);
      assert.equal(written.iterations.length, 0);
      assert.equal(written.repeat, undefined);
    });

    it('untrusted: refused as before, the paused repeat left as it was', async () => {
      const spec = prepare('repeat-untrusted', [{ summary: STUCK }]);
      const first = await run(
        [
          { step: 'repeat.spec', text: spec },
          { step: 'repeat.answer', cancel: true },
        ],
        { root, session: 'repeat-untrusted' },
      );
      assert.equal(first.report.status, 'paused', first.report.message);
      const before = readFileSync(join(root, '.loop', 'ledgers', 'repeat-untrusted.json'), 'utf8');
      const untrusted = (await testingApi()).trust.simulateUntrusted();
      try {
        const { report } = await run([], { root, session: 'repeat-untrusted' }, 'loopLedger.resume');
        assert.equal(report.status, 'untrusted', report.message);
      } finally {
        untrusted.dispose();
      }
      assert.equal(readFileSync(join(root, '.loop', 'ledgers', 'repeat-untrusted.json'), 'utf8'), before);
    });
  });
});
