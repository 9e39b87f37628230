// The session overview of a run in a real workbench: a run session whose run folder holds its
// receipt and the files each phase writes; a click on it in the Sessions tree shows each attempt's
// phases with durations (in words and as bars) and the receipt's verdict, axe-core clean, with a
// screenshot in test/e2e/shots/ for a person to look at.
import * as assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticLedger } from '../unit/overview/synthetic-ledger';
import { assertAxeClean, frameWith } from './axe';
import { Workbench } from './workbench';

const UI_TIMEOUT = 30_000;
const SESSION = 'kinds-run';
const RUN_ID = '20260101T000000Z-kinds';

function prepare(workspace: string): void {
  const dir = join(workspace, '.loop', 'ledgers');
  mkdirSync(dir, { recursive: true });
  const run = syntheticLedger(3, SESSION);
  run.contract.owner = 'loop-ledger run';
  run.contract.purpose = 'Implement parseDuration';
  run.iterations.forEach((r, i) => {
    const nn = `0${i + 1}`;
    r.actions = [`${RUN_ID}/${nn}/coder`, `${RUN_ID}/${nn}/checks`, `${RUN_ID}/${nn}/code-reviewer`];
    r.critic_verdict = i === 2 ? 'PASS' : 'REVISE';
  });
  writeFileSync(join(dir, `${SESSION}.json`), JSON.stringify(run, null, 2));
  const runDir = join(workspace, '.loop', 'runs', RUN_ID);
  const stamp = (path: string, seconds: number) => {
    writeFileSync(path, '');
    utimesSync(path, 1_800_000_000 + seconds, 1_800_000_000 + seconds);
  };
  mkdirSync(join(runDir, 'explorer'), { recursive: true });
  stamp(join(runDir, 'explorer', 'explorer-prompt.md'), 0);
  stamp(join(runDir, 'explorer', 'explorer-stderr.txt'), 20);
  [
    [30, 95, 96, 99, 100, 140],
    [150, 180, 181, 183, 184, 200],
    [210, 260, 261, 262, 263, 290],
  ].forEach((t, i) => {
    const a = join(runDir, 'attempts', `0${i + 1}`);
    mkdirSync(a, { recursive: true });
    stamp(join(a, 'coder-prompt.md'), t[0]!);
    stamp(join(a, 'coder-stderr.txt'), t[1]!);
    stamp(join(a, 'changed-files.txt'), t[2]!);
    stamp(join(a, 'checks.json'), t[3]!);
    stamp(join(a, 'code-reviewer-prompt.md'), t[4]!);
    stamp(join(a, 'code-reviewer-stderr.txt'), t[5]!);
  });
  writeFileSync(
    join(runDir, 'final-receipt.json'),
    JSON.stringify({
      final_verdict: 'PASS',
      stop_reason: 'CODE_REVIEWER_PASS',
      attempts_used: 3,
      max_attempts: 3,
    }),
  );
}

describe('session overview of a run', function () {
  let workbench: Workbench;

  before(async function () {
    this.timeout(400_000);
    workbench = await Workbench.open({ prepare });
  });

  after(async function () {
    await workbench?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await workbench?.screenshot(`failed-${this.currentTest.title}`);
  });

  it('shows each attempt’s phases with durations and the receipt’s verdict (run kinds)', async function () {
    await workbench.openViewContainer('Loop Ledger');
    const row = workbench.pane('Sessions').locator('.monaco-list-row', { hasText: SESSION }).first();
    await row.waitFor({ timeout: UI_TIMEOUT });
    await row.click();
    const frame = await frameWith(workbench.page, '#kind-section .receipt');
    const section = await frame.locator('#kind-section').innerText();
    assert.match(section, /receipt verdict PASS \(CODE_REVIEWER_PASS\)/);
    assert.match(section, /explorer 20\.0 s · coder 1 min 5 s · checks 3\.0 s · code-reviewer 40\.0 s/);
    assert.equal(await frame.locator('#kind-section svg.phase-bars').count(), 3);
    assert.equal(await frame.locator('#kind-section svg.phase-bars rect').count(), 10);
    await frame.locator('#kind-section').scrollIntoViewIfNeeded();
    await workbench.screenshot('overview-run-phases-light');
    await assertAxeClean(frame);
  });
});
