import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertAxeClean, frameWith } from './axe';
import { expandRow, repoRoot, Workbench } from './workbench';

// Run Loop through the real workbench: the palette's questions, the running phase on the
// session's tree node, the finished attempt as an iteration, the receipt viewer, and Cancel Run.
describe('Run Loop from the palette', function () {
  let workbench: Workbench;

  const fakeAgent = join(repoRoot, 'examples', 'run', 'fake-agent.mjs');
  /** An agent config whose coder waits `seconds` before doing the fake agent's work. */
  const slowConfig = (seconds: number) =>
    `[explorer]\ncmd = ["{node}", ${JSON.stringify(fakeAgent)}]\n\n` +
    `[coder]\ncmd = "sleep ${seconds} && {node} ${fakeAgent}"\nwrites = true\n\n` +
    `[code-reviewer]\ncmd = ["{node}", ${JSON.stringify(fakeAgent)}]\n`;

  before(async function () {
    workbench = await Workbench.open();
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: workbench.workspace, stdio: 'ignore' });
    git('init', '--quiet');
    git('config', 'user.email', 'e2e@example.invalid');
    git('config', 'user.name', 'e2e');
    mkdirSync(join(workbench.workspace, '.git', 'info'), { recursive: true });
    writeFileSync(join(workbench.workspace, '.git', 'info', 'exclude'), '.loop/\n');
    git('add', '-A');
    git('commit', '--quiet', '-m', 'initial');
    mkdirSync(join(workbench.workspace, '.loop'), { recursive: true });
    writeFileSync(join(workbench.workspace, '.loop', 'slow-agents.toml'), slowConfig(6));
    writeFileSync(join(workbench.workspace, '.loop', 'stuck-agents.toml'), slowConfig(120));
  });

  after(async function () {
    await workbench?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await workbench?.screenshot(`failed-${this.currentTest.title}`);
  });

  const page = () => workbench.page;
  const sessions = () => workbench.pane('Sessions');
  const row = (text: string | RegExp) => sessions().locator('.monaco-list-row', { hasText: text }).first();
  const quickInput = () => page().locator('.quick-input-widget');
  const ledger = (session: string) =>
    JSON.parse(readFileSync(join(workbench.workspace, '.loop', 'ledgers', `${session}.json`), 'utf8'));

  async function answer(cue: string, text: string | undefined): Promise<void> {
    const widget = quickInput();
    await widget.waitFor({ state: 'visible' });
    await widget
      .locator(`input[placeholder*="${cue}"], :text("${cue}")`)
      .first()
      .waitFor({ timeout: 30_000 });
    if (text !== undefined) await widget.locator('input.input').fill(text);
    await page().keyboard.press('Enter');
  }

  /** Picks `item` from a row's context menu; retries when a busy workbench drops the click. */
  async function contextMenu(rowText: string, item: string): Promise<void> {
    const menu = page().locator('.context-view');
    for (let attempt = 1; attempt <= 3; attempt++) {
      await row(rowText).click({ button: 'right' });
      const entry = menu.locator('.action-item', { hasText: item }).first();
      await entry.waitFor({ timeout: 10_000 });
      await entry.hover();
      await entry.click();
      try {
        await menu.locator('.action-item').first().waitFor({ state: 'hidden', timeout: 5_000 });
        return;
      } catch {
        console.log(`      (context menu: "${item}" click not taken, attempt ${attempt} of 3)`);
        await page().keyboard.press('Escape');
      }
    }
    throw new Error(`context menu item not taken: ${item}`);
  }

  async function startRunLoop(session: string, config: string): Promise<void> {
    await page().keyboard.press('F1');
    await quickInput().locator('input').fill('>Loop Ledger: Run Loop');
    await quickInput().locator('.monaco-list-row', { hasText: 'Loop Ledger: Run Loop' }).first().waitFor();
    await page().keyboard.press('Enter');
    await answer('Session', session);
    await answer('Objective', 'Write the demo note');
    await answer('Allowed globs', 'docs/**');
    await answer('Another check command', 'test -f docs/loop-demo.md');
    await answer('Agent config', config);
    await answer('Maximum attempts', '2');
    await quickInput().waitFor({ state: 'hidden' });
  }

  it('runs to PASS: the phase on the session node while it runs, then the attempt as an iteration', async function () {
    await workbench.openViewContainer('Loop Ledger');
    await startRunLoop('e2e-run', '.loop/slow-agents.toml');
    await row(/e2e-run[\s\S]*attempt 1\/2: coder/).waitFor({ timeout: 30_000 });
    await workbench.screenshot('run-01-running-coder');
    await row(/e2e-run[\s\S]*closed/).waitFor({ timeout: 60_000 });
    await expandRow(row('e2e-run'));
    await row('#1 complete').waitFor({ timeout: 10_000 });
    await workbench.screenshot('run-02-finished');
    const l = ledger('e2e-run');
    assert.equal(l.final_outcome, 'complete');
    assert.equal(l.iterations[0].critic_verdict, 'PASS');
  });

  it('opens the receipt viewer: verdict, reason, checks, validator; axe-core clean in light and dark', async function () {
    // From the session's context menu: the newest receipt of that session's runs.
    await contextMenu('e2e-run', 'Open Receipt');
    const frame = page().frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    await frame.locator('#verdict', { hasText: 'PASS' }).waitFor({ timeout: 30_000 });
    assert.match(await frame.locator('#reason').innerText(), /Every check exited 0/);
    assert.match(await frame.locator('#checks').innerText(), /test -f docs\/loop-demo\.md/);
    assert.match(await frame.locator('#validator').innerText(), /LOOP RECEIPT VALID/);
    await workbench.screenshot('run-03-receipt');
    // Contrast included, in the light theme and then the dark one ("LOOP RECEIPT VALID", exit codes).
    await assertAxeClean(await frameWith(page(), '#validator'));
    mkdirSync(join(workbench.workspace, '.vscode'), { recursive: true });
    writeFileSync(
      join(workbench.workspace, '.vscode', 'settings.json'),
      JSON.stringify({ 'workbench.colorTheme': 'Default Dark Modern' }),
    );
    await page().locator('.monaco-workbench.vs-dark').waitFor({ timeout: 30_000 });
    await frame.locator('body.vscode-dark').waitFor({ timeout: 30_000 });
    await workbench.screenshot('run-03-receipt-dark');
    await assertAxeClean(await frameWith(page(), '#validator'));
    // Back to the light theme and a clean working tree for the tests that follow.
    rmSync(join(workbench.workspace, '.vscode'), { recursive: true, force: true });
    await page().locator('.monaco-workbench.vs').waitFor({ timeout: 30_000 });
  });

  it('cancels a run from the session node: pause recorded, nothing left running', async function () {
    // The first run's note is an uncommitted change: a run starts from a clean tree.
    rmSync(join(workbench.workspace, 'docs'), { recursive: true, force: true });
    await startRunLoop('e2e-cancel', '.loop/stuck-agents.toml');
    await row(/e2e-cancel[\s\S]*attempt 1\/2: coder/).waitFor({ timeout: 30_000 });
    await contextMenu('e2e-cancel', 'Cancel Run');
    await row(/e2e-cancel[\s\S]*paused/).waitFor({ timeout: 30_000 });
    await workbench.screenshot('run-04-cancelled');
    const l = ledger('e2e-cancel');
    assert.equal(l.final_outcome, 'pause');
  });
});
