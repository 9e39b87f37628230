// The checkpoint settings in a real VS Code: Repeat Until Settled (which runs in the extension
// host) takes a checkpoint per recorded run by default; `loopLedger.checkpoints.enabled: false`
// makes it take none (as `--no-checkpoint`), and `loopLedger.checkpoints.maxFileSizeMB` is the
// size cap its checkpoints use (a file over it is left out and listed). The folder is made a git
// repository for the suite, so each run is also asserted to leave the user's git untouched.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { openOp } from '../../src/app/contract/operations';
import type { RepeatCommandReport } from '../../src/extension/repeat/repeatCommand';
import type { LoopLedgerApi } from '../../src/extension/extension';
import { ScriptedPrompter } from '../hooks/scriptedPrompter';
import { assertGitUntouched } from './gitUntouched';
import { extensionPath, loopLedgerApi, testingApi, workspaceRoot } from './sessionsHelpers';

const NONE = 'Analysis complete. No recommendations.';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

describe('Checkpoint settings, in a real VS Code', function () {
  this.timeout(120_000);
  let api: LoopLedgerApi;
  let root: string;
  let outside: string;
  const sessions: string[] = [];
  /** Set when this suite made the folder a repository (and so removes it after). */
  let madeRepository = false;
  const settings = () => vscode.workspace.getConfiguration('loopLedger.checkpoints');

  before(async () => {
    api = await loopLedgerApi();
    root = workspaceRoot();
    outside = mkdtempSync(join(tmpdir(), 'loop-ledger-cp-settings-'));
    if (!existsSync(join(root, '.git'))) {
      const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'pipe' });
      git('init', '--quiet');
      git('config', 'user.email', 'it@example.invalid');
      git('config', 'user.name', 'integration');
      mkdirSync(join(root, '.git', 'info'), { recursive: true });
      writeFileSync(join(root, '.git', 'info', 'exclude'), '.loop/\n');
      git('add', '-A');
      git('commit', '--quiet', '-m', 'initial');
      madeRepository = true;
    }
  });
  after(async () => {
    await settings().update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
    await settings().update('maxFileSizeMB', undefined, vscode.ConfigurationTarget.Workspace);
    for (const session of sessions)
      rmSync(join(root, '.loop', 'ledgers', `${session}.json`), { force: true });
    for (const path of [['.loop', 'repeat'], ['.loop', 'checkpoints.git'], ['cp-settings-demo']])
      rmSync(join(root, ...path), { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
    if (madeRepository) rmSync(join(root, '.git'), { recursive: true, force: true });
    delete process.env.REPEAT_PLAN;
    await api.sessions.refreshAll();
  });

  /** Repeats `session` to a settle (one run writing a 4 KB file, then nothing); its records. */
  async function repeatRecords(session: string): Promise<Row[]> {
    sessions.push(session);
    const contract = join(outside, `${session}.contract.json`);
    writeFileSync(
      contract,
      JSON.stringify({
        purpose: 'Exercise the checkpoint settings',
        owner: 'tests',
        starting_state: 'empty',
        inputs: ['cp-settings-demo'],
        expected_outputs: ['a file'],
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
    writeFileSync(
      plan,
      JSON.stringify([
        {
          summary: 'Applied 1 recommendation',
          files: { [`cp-settings-demo/${session}.bin`]: 'x'.repeat(4096) },
        },
        { summary: NONE },
      ]),
    );
    process.env.REPEAT_PLAN = plan;
    const step = join(extensionPath(), 'test', 'fixtures', 'repeat', 'step.mjs');
    const prompter = new ScriptedPrompter([
      { step: 'repeat.spec', text: `"${process.execPath}" "${step}" max=8` },
    ]);
    const using = (await testingApi()).prompter.use(prompter);
    try {
      // The step writes its files under cp-settings-demo/ on purpose; the checkpoints write nothing.
      const report = await assertGitUntouched(
        root,
        async () =>
          (await vscode.commands.executeCommand('loopLedger.repeatUntilSettled', {
            root,
            session,
          })) as RepeatCommandReport,
        { writtenBy: ['cp-settings-demo/'] },
      );
      assert.equal(report.status, 'done', report.message);
    } finally {
      using.dispose();
    }
    const ledger = JSON.parse(readFileSync(join(root, '.loop', 'ledgers', `${session}.json`), 'utf8'));
    return ledger.iterations as Row[];
  }

  it('by default each recorded run carries a checkpoint', async () => {
    const records = await repeatRecords('cp-settings-default');
    assert.ok(records.length >= 2, JSON.stringify(records.map((r) => r.n)));
    for (const r of records) {
      assert.ok(r.checkpoint, `iteration ${r.n} has no checkpoint (${r.checkpoint_skipped ?? ''})`);
      assert.deepEqual(r.checkpoint.excluded, []);
    }
  });

  it('loopLedger.checkpoints.maxFileSizeMB is the size cap: a larger file is left out and listed', async () => {
    await settings().update('maxFileSizeMB', 0.002, vscode.ConfigurationTarget.Workspace);
    const records = await repeatRecords('cp-settings-cap');
    const first = records[0]!;
    assert.ok(first.checkpoint, `no checkpoint (${first.checkpoint_skipped ?? ''})`);
    assert.deepEqual(
      first.checkpoint.excluded.filter((e: Row) => e.path === 'cp-settings-demo/cp-settings-cap.bin'),
      [{ path: 'cp-settings-demo/cp-settings-cap.bin', reason: 'too-large', bytes: 4096 }],
    );
  });

  it('loopLedger.checkpoints.enabled: false takes none (no checkpoint key, nothing skipped)', async () => {
    await settings().update('enabled', false, vscode.ConfigurationTarget.Workspace);
    const records = await repeatRecords('cp-settings-off');
    assert.ok(records.length >= 2);
    for (const r of records) {
      assert.equal(r.checkpoint, undefined, `iteration ${r.n} has a checkpoint`);
      assert.equal(r.checkpoint_skipped, undefined);
    }
  });
});
