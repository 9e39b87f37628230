import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { EXIT_MEANING } from '../../src/engine/refusal';
import type { Ledger } from '../../src/engine/types';
import type { CommandReport } from '../../src/extension/commands/deps';
import type { LoopLedgerApi } from '../../src/extension/extension';
import { ScriptedPrompter, type ScriptedAnswer } from '../hooks/scriptedPrompter';
import type { TestingApi } from '../hooks/testHooks';
import {
  installSessionFixtures,
  loopLedgerApi,
  removeSessionFixtures,
  testingApi,
  waitFor,
  workspaceRoot,
} from './sessionsHelpers';

describe('Loop Ledger session commands, driven with scripted quick-input answers', () => {
  let api: LoopLedgerApi;
  let testing: TestingApi;
  let root: string;
  const ledgerPath = (session: string) => join(root, '.loop', 'ledgers', `${session}.json`);
  const ledger = (session: string) => JSON.parse(readFileSync(ledgerPath(session), 'utf8')) as Ledger;

  /** Runs a command with `script` as the person's answers; every answer must be used. */
  async function run<P>(command: string, script: ScriptedAnswer[], ...args: unknown[]) {
    const prompter = new ScriptedPrompter(script);
    const using = testing.prompter.use(prompter);
    try {
      const report = (await vscode.commands.executeCommand(command, ...args)) as CommandReport<P>;
      assert.deepEqual(prompter.remaining, [], 'unused scripted answers');
      return { report, prompter };
    } finally {
      using.dispose();
    }
  }

  before(async () => {
    api = await loopLedgerApi();
    testing = await testingApi();
    root = workspaceRoot();
    installSessionFixtures(root);
    await api.sessions.refreshAll();
  });
  after(async () => {
    removeSessionFixtures(root);
    await api.sessions.refreshAll();
  });

  describe('Record Iteration', () => {
    it('records through the engine, prefilling each measurement with the last reading', async () => {
      const { report, prompter } = await run<{ n: number }>('loopLedger.recordIteration', [
        { step: 'record.session', pick: 'beta' },
        { step: 'record.outcome', pick: 'continue' },
        { step: 'record.actions', text: 'write-docs, tidy' },
        { step: 'record.measure', pick: 'Record measurements' },
        { step: 'record.measure.failing-tests', text: '1' },
        { step: 'record.measure.coverage', text: '79' },
        { step: 'record.details', pickMany: ['Note'] },
        { step: 'record.note', text: 'recorded from the palette' },
      ]);
      assert.equal(report.status, 'done', report.message);
      assert.match(report.message!, /^beta: iteration 3 recorded: continue; rubric pass/);
      const asked = new Map(prompter.asked.map((q) => [q.id, q]));
      assert.equal(asked.get('record.measure.failing-tests')?.value, '2');
      assert.equal(asked.get('record.measure.coverage')?.value, '77');
      assert.match(asked.get('record.actions')!.title, /Record Iteration/);
      const onDisk = ledger('beta');
      const record = onDisk.iterations.at(-1)!;
      assert.equal(record.n, 3);
      assert.deepEqual(record.actions, ['write-docs', 'tidy']);
      assert.deepEqual(record.measurements, { 'failing-tests': 1, coverage: 79 });
      assert.equal(record.note, 'recorded from the palette');
      assert.match(
        report.cli!,
        /^loop-ledger iterate --root \S+ --session beta --outcome continue --action write-docs --action tidy --measure failing-tests=1 --measure coverage=79 --note 'recorded from the palette'$/,
      );
    });

    it('shows the completed actions, and a refusal with its findings and exit meaning, writing nothing', async () => {
      const before = readFileSync(ledgerPath('beta'), 'utf8');
      const { report, prompter } = await run(
        'loopLedger.recordIteration',
        [
          { step: 'record.outcome', pick: 'continue' },
          { step: 'record.actions', text: 'add-fixtures' },
          { step: 'record.measure', pick: 'No measurements' },
          { step: 'record.details', pickMany: [] },
        ],
        { root, session: 'beta' },
      );
      const actionsPrompt = prompter.asked.find((q) => q.id === 'record.actions');
      assert.ok(actionsPrompt);
      assert.equal(report.status, 'refused');
      assert.equal(report.exitCode, 5);
      assert.ok(report.message!.includes(EXIT_MEANING[5]), report.message);
      // In the UI's words, as a sentence, and the message ends "… refused. Nothing was written."
      assert.match(
        report.findings![0]!,
        /^Action add-fixtures: already recorded complete; the whole batch is refused\.$/,
      );
      assert.match(report.message!, /is refused\. Nothing was written\.$/);
      assert.equal(readFileSync(ledgerPath('beta'), 'utf8'), before);
    });

    it('goes back a step with Back, and a cancel writes nothing', async () => {
      const before = readFileSync(ledgerPath('beta'), 'utf8');
      const { report, prompter } = await run('loopLedger.recordIteration', [
        { step: 'record.session', pick: 'beta' },
        { step: 'record.outcome', pick: 'escalate' },
        { step: 'record.actions', back: true },
        { step: 'record.outcome', back: true },
        { step: 'record.session', pick: 'beta' },
        { step: 'record.outcome', cancel: true },
      ]);
      assert.equal(report.status, 'cancelled');
      assert.deepEqual(
        prompter.asked.map((q) => [q.id, q.step]),
        [
          ['record.session', 1],
          ['record.outcome', 2],
          ['record.actions', 3],
          ['record.outcome', 2],
          ['record.session', 1],
          ['record.outcome', 2],
        ],
      );
      assert.equal(readFileSync(ledgerPath('beta'), 'utf8'), before);
    });

    it('asks for the escalate fields when the outcome needs them', async () => {
      const { report } = await run(
        'loopLedger.recordIteration',
        [
          { step: 'record.outcome', pick: 'escalate' },
          { step: 'record.actions', text: '' },
          { step: 'record.measure', pick: 'No measurements' },
          { step: 'record.details', pickMany: [] },
          { step: 'record.blocker', text: 'no access to the registry' },
          { step: 'record.evidence', text: 'npm ERR 403' },
          { step: 'record.recommendedNext', text: 'ask for a token' },
        ],
        { root, session: 'legacy-run' },
      );
      assert.equal(report.status, 'done', report.message);
      // The original file is never modified: the first write creates the .loop ledger.
      const written = ledger('legacy-run');
      assert.equal(written.status, 'closed');
      assert.equal(written.close_blocker, 'no access to the registry');
    });
  });

  describe('Open Loop, then a stall-promoted iteration', () => {
    it('opens a loop from a contract and announces "reported continue, recorded stop"', async () => {
      const opened = await run('loopLedger.openLoop', [
        { step: 'open.contract', pick: '.loop/contracts/short-loop.json' },
        { step: 'open.session', text: 'kappa' },
        { step: 'open.stallThreshold', text: '3' },
        { step: 'open.baselineEvidence', pickMany: [] },
      ]);
      assert.equal(opened.report.status, 'done', opened.report.message);
      assert.equal(ledger('kappa').status, 'open');

      const answers = (action: string): ScriptedAnswer[] => [
        { step: 'record.outcome', pick: 'continue' },
        { step: 'record.actions', text: action },
        { step: 'record.measure', pick: 'No measurements' },
        { step: 'record.details', pickMany: [] },
      ];
      const first = await run('loopLedger.recordIteration', answers('try-1'), { root, session: 'kappa' });
      assert.equal(first.report.status, 'done', first.report.message);
      const second = await run('loopLedger.recordIteration', answers('try-2'), { root, session: 'kappa' });
      assert.equal(
        second.report.message,
        'kappa: iteration 2 reported continue, recorded stop: retries-exhausted.',
      );
      assert.equal(ledger('kappa').final_outcome, 'stop');
    });

    it('refuses an invalid session id in the quick input itself', async () => {
      await assert.rejects(
        run('loopLedger.openLoop', [
          { step: 'open.contract', pick: '.loop/contracts/short-loop.json' },
          { step: 'open.session', text: '../escape' },
        ]),
        /open\.session: "\.\.\/escape" refused/,
      );
    });

    it("refuses a stall threshold of 0 with the engine's finding, as the CLI does", async () => {
      await assert.rejects(
        run('loopLedger.openLoop', [
          { step: 'open.contract', pick: '.loop/contracts/short-loop.json' },
          { step: 'open.session', text: 'zero-threshold' },
          { step: 'open.stallThreshold', text: '0' },
        ]),
        /open\.stallThreshold: "0" refused: Stall threshold: expected a whole number of at least 1, got 0/,
      );
      assert.equal(existsSync(ledgerPath('zero-threshold')), false);
    });
  });

  describe('arguments from other extensions are resolved against the workspace', () => {
    it("refuses a session node or key that is not one of this workspace's sessions, writing nothing", async () => {
      const outside = mkdtempSync(join(tmpdir(), 'loop-ledger-outside-'));
      const forged = {
        kind: 'session',
        root: { name: 'x', path: outside },
        entry: {
          kind: 'ledger',
          root: outside,
          session: 'beta',
          path: join(outside, 'beta.json'),
          legacy: false,
        },
      };
      for (const argument of [
        forged,
        { root: outside, session: 'beta' },
        { root, session: 'no-such-session' },
      ]) {
        for (const command of ['loopLedger.recordIteration', 'loopLedger.close', 'loopLedger.showStatus']) {
          const { report } = await run(command, [], argument);
          assert.equal(report.status, 'refused', `${command}: ${report.message}`);
          assert.match(report.message ?? '', /no session|not a session/i);
        }
      }
      assert.deepEqual(readdirSync(outside), [], 'nothing written outside the workspace');
      rmSync(outside, { recursive: true, force: true });
    });
  });

  describe('Close, Resume, Score, Show Status', () => {
    it('closes a session as paused, then resumes it', async () => {
      const closed = await run(
        'loopLedger.close',
        [
          { step: 'close.outcome', pick: 'pause' },
          { step: 'close.note', text: 'lunch' },
          { step: 'close.confirm', confirm: true },
        ],
        { root, session: 'iota' },
      );
      assert.equal(closed.report.status, 'done', closed.report.message);
      assert.equal(ledger('iota').final_outcome, 'pause');
      await api.sessions.refreshFile(ledgerPath('iota'));
      const resumed = await run('loopLedger.resume', [{ step: 'resume.session', pick: 'iota' }]);
      assert.equal(resumed.report.status, 'done', resumed.report.message);
      assert.equal(ledger('iota').status, 'open');
      assert.equal(ledger('iota').resumed, 1);
    });

    it('refuses to resume a session that was not paused, with the exit meaning', async () => {
      const { report } = await run('loopLedger.resume', [], { root, session: 'delta' });
      assert.equal(report.status, 'refused');
      assert.equal(report.exitCode, 3);
      assert.ok(report.message!.includes(EXIT_MEANING[3]));
    });

    it('scores without writing, and reports a breached hard gate (exit 6) with its payload', async () => {
      const before = readFileSync(ledgerPath('delta'), 'utf8');
      const { report } = await run<{ verdict: string }>(
        'loopLedger.score',
        [
          { step: 'score.measure.failing-tests', text: '9' },
          { step: 'score.measure.coverage', text: '81' },
        ],
        { root, session: 'delta' },
      );
      assert.equal(report.exitCode, 6);
      assert.equal(report.payload?.verdict, 'fail');
      assert.match(report.message!, /hard gates breached: failing-tests/);
      assert.equal(readFileSync(ledgerPath('delta'), 'utf8'), before);
    });

    it('shows a status from the status bar argument', async () => {
      const { report } = await run<{ iterations: number }>('loopLedger.showStatus', [], {
        root,
        session: 'alpha',
      });
      assert.equal(report.status, 'done');
      assert.equal(report.payload?.iterations, 4);
      assert.match(report.message!, /^alpha: closed \(escalate\) · epoch 2 · 2\/10 iterations this epoch/);
    });

    it('refuses a command on a corrupt ledger with the store verdict (exit 2)', async () => {
      const { report } = await run('loopLedger.recordIteration', [], { root, session: 'broken' });
      assert.equal(report.status, 'refused');
      assert.equal(report.exitCode, 2);
    });
  });

  describe('Copy CLI Command and Reveal Ledger File', () => {
    it('copies the CLI line of the last action taken from VS Code', async () => {
      const { report } = await run<{ text: string }>(
        'loopLedger.copyCliCommand',
        [{ step: 'cli.command', pick: 'last action (iterate #2)' }],
        { root, session: 'kappa' },
      );
      assert.match(
        report.payload!.text,
        /^loop-ledger iterate --root \S+ --session kappa --outcome continue --action try-2$/,
      );
      assert.equal(await vscode.env.clipboard.readText(), report.payload!.text);
    });

    it('opens the ledger file', async () => {
      const { report } = await run('loopLedger.revealLedgerFile', [], { root, session: 'gamma' });
      assert.equal(report.status, 'done', report.message);
      await waitFor(
        'the ledger in the active editor',
        () => vscode.window.activeTextEditor?.document.uri.fsPath === ledgerPath('gamma'),
      );
    });
  });

  describe('in an untrusted workspace', () => {
    it('refuses every write with a clear message, and still scores and shows status', async () => {
      const untrusted = testing.trust.simulateUntrusted();
      try {
        const before = readFileSync(ledgerPath('beta'), 'utf8');
        for (const command of [
          'loopLedger.recordIteration',
          'loopLedger.openLoop',
          'loopLedger.close',
          'loopLedger.resume',
        ]) {
          const { report } = await run(command, [], { root, session: 'beta' });
          assert.equal(report.status, 'untrusted', command);
          assert.match(report.message!, /not trusted.*read-only here/);
        }
        assert.equal(readFileSync(ledgerPath('beta'), 'utf8'), before);
        const status = await run('loopLedger.showStatus', [], { root, session: 'beta' });
        assert.equal(status.report.status, 'done');
      } finally {
        untrusted.dispose();
      }
    });
  });
});
