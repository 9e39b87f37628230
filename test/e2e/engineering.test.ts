// A loop-engineering contract in the workbench, end to end: the mode mistake shows as a squiggle
// and a Problems entry, the quick fix (Ctrl+.) writes a canonical mode, the CodeLens opens a loop
// with it, and the agent's CLI records iterations until the call budget stops the loop — which
// the Sessions view and the status bar then show.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, Workbench } from './workbench';

const CONTRACT = '.loop/contracts/nightly.loop.md';
const MODE_FINDING = 'mode must be Goal, Loop, Automation, or AutoResearch';

describe('loop-engineering contract in the workbench', function () {
  let workbench: Workbench;

  before(async function () {
    workbench = await Workbench.open({ fixture: 'engineering-workspace' });
  });
  after(async function () {
    await workbench?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await workbench?.screenshot(`failed-${this.currentTest.title}`);
  });

  const page = () => workbench.page;
  const editor = () => page().locator('.editor-instance .monaco-editor').first();
  const focusedEditor = () => page().locator('.editor-instance .monaco-editor.focused').first();

  function cli(...args: string[]) {
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    delete env.NODE_EXTRA_CA_CERTS;
    const r = spawnSync(
      process.execPath,
      [join(repoRoot, 'dist', 'cli.js'), ...args, '--root', workbench.workspace, '--json'],
      {
        encoding: 'utf8',
        env,
      },
    );
    return { code: r.status, json: r.stdout ? JSON.parse(r.stdout) : undefined, stderr: r.stderr };
  }

  it('shows the mode mistake as a squiggle and a Problems entry with its code', async function () {
    await workbench.openFile(CONTRACT);
    await editor().locator('.codelens-decoration', { hasText: 'Open loop with this contract' }).waitFor();
    await editor().locator('.squiggly-error').first().waitFor({ timeout: 15_000 });
    const rows = await workbench.problems(MODE_FINDING);
    assert.ok(
      rows.some((r) => r.includes('invalid-mode')),
      rows.join('\n'),
    );
    await workbench.screenshot('engineering-01-mode-squiggle');
  });

  it('fixes the mode with the quick fix (Ctrl+.) and saves a contract that validates --strict', async function () {
    const entry = (await workbench.problems(MODE_FINDING)).find((row) => row.includes(MODE_FINDING)) ?? '';
    const at = /\[Ln (\d+), Col (\d+)\]/.exec(entry);
    assert.ok(at, `no position in the Problems entry: ${entry}`);
    await workbench.runCommand('View: Focus Active Editor Group');
    await focusedEditor().waitFor({ timeout: 15_000 });
    await page().keyboard.press('Control+G');
    const palette = page().locator('.quick-input-widget');
    await palette.waitFor({ state: 'visible', timeout: 15_000 });
    await palette.locator('input').fill(`:${at[1]}:${Number(at[2]) + 1}`);
    await page().keyboard.press('Enter');
    await palette.waitFor({ state: 'hidden', timeout: 15_000 });
    await focusedEditor().waitFor({ timeout: 15_000 });
    const menu = page().locator('.action-widget').first();
    const fix = menu.locator('.action-item, .monaco-list-row', { hasText: 'Mode: Loop' });
    for (let attempt = 1; ; attempt++) {
      await page().keyboard.press('Control+.');
      try {
        await fix.first().waitFor({ timeout: 5_000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
        await page().keyboard.press('Escape');
        await focusedEditor().waitFor({ timeout: 15_000 });
      }
    }
    await workbench.screenshot('engineering-02-quick-fix-menu');
    const focusedFix = menu.locator('.monaco-list-row.action.focused', { hasText: 'Mode: Loop' });
    const rows = await menu.locator('.monaco-list-row.action').count();
    for (let moved = 0; (await focusedFix.count()) === 0 && moved < rows; moved++) {
      await page().keyboard.press('ArrowDown');
    }
    await focusedFix.waitFor({ timeout: 5_000 });
    await page().keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden', timeout: 15_000 });
    await editor().locator('.squiggly-error').first().waitFor({ state: 'detached', timeout: 15_000 });
    await page().keyboard.press('Control+S');
    const saved = () => readFileSync(join(workbench.workspace, CONTRACT), 'utf8');
    for (let waited = 0; !saved().includes('Mode: Loop') && waited < 15_000; waited += 200) {
      await page().waitForTimeout(200);
    }
    assert.match(saved(), /^Mode: Loop$/m);
    const file = join(workbench.workspace, CONTRACT);
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const validated = spawnSync(
      process.execPath,
      [join(repoRoot, 'dist', 'cli.js'), 'validate', '--strict', file],
      {
        encoding: 'utf8',
        env,
      },
    );
    assert.equal(validated.status, 0, validated.stdout + validated.stderr);
    await workbench.screenshot('engineering-03-fixed');
  });

  it('opens a loop from the CodeLens, then the agent records until the call budget stops it', async function () {
    await editor().locator('.codelens-decoration a', { hasText: 'Open loop with this contract' }).click();
    const palette = page().locator('.quick-input-widget');
    await palette.waitFor({ state: 'visible', timeout: 15_000 });
    await palette.locator('input').fill('nightly');
    await page().keyboard.press('Enter');
    await palette.waitFor({ state: 'hidden', timeout: 15_000 });
    const ledgerFile = join(workbench.workspace, '.loop', 'ledgers', 'nightly.json');
    for (let waited = 0; waited < 15_000; waited += 200) {
      try {
        if (JSON.parse(readFileSync(ledgerFile, 'utf8')).engineering) break;
      } catch {
        // not written yet
      }
      await page().waitForTimeout(200);
    }
    assert.equal(JSON.parse(readFileSync(ledgerFile, 'utf8')).engineering.caps.calls, 2);

    // The agent's side: two iterations, one tool call each; the second reaches the budget.
    const first = cli('iterate', '--session', 'nightly', '--outcome', 'continue', '--spent', 'calls=1');
    assert.equal(first.json?.outcome, 'continue', first.stderr);
    const second = cli('iterate', '--session', 'nightly', '--outcome', 'continue', '--spent', 'calls=1');
    assert.equal(second.json?.stall, 'budget-stop', second.stderr);
    assert.equal(second.json?.loop_status, 'BUDGET_STOP');

    await workbench.openViewContainer('Loop Ledger');
    const sessions = workbench.pane('Sessions');
    const row = sessions.locator('.monaco-list-row', { hasText: 'nightly' }).first();
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    await sessions.locator('.monaco-list-row', { hasText: 'stop' }).first().waitFor({ timeout: 15_000 });
    const status = page().locator('.statusbar-item', { hasText: 'calls 2/2' }).first();
    await status.waitFor({ timeout: 15_000 });
    await workbench.screenshot('engineering-04-budget-stop');
  });
});
