import * as assert from 'node:assert/strict';
import { Workbench } from './workbench';

describe('smoke: Loop Ledger in the workbench', function () {
  let workbench: Workbench;

  before(async function () {
    workbench = await Workbench.open();
  });

  after(async function () {
    await workbench?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await workbench?.screenshot(`failed-${this.currentTest.title}`);
  });

  it('shows the Sessions view with its welcome text', async function () {
    await workbench.openViewContainer('Loop Ledger');
    const sessions = workbench.pane('Sessions');
    await sessions
      .locator('.welcome-view-content', { hasText: 'Sessions recorded there will be listed here' })
      .waitFor();
    await sessions.getByRole('button', { name: 'Reveal Ledger Folder' }).waitFor();
    await workbench.screenshot('smoke-01-sessions-view');
  });

  it('runs "Loop Ledger: Reveal Ledger Folder" from the palette and reports the missing folder', async function () {
    await workbench.runCommand('Loop Ledger: Reveal Ledger Folder');
    const notifications = await workbench.readNotifications('no ledger folder yet');
    assert.ok(
      notifications.some((text) => text.includes('.loop/ledgers')),
      notifications.join('\n'),
    );
    await workbench.screenshot('smoke-02-notification');
    await workbench.hideNotifications();
  });

  it('New Contract lists each blank field once, as Loop Ledger’s own finding, in Problems', async function () {
    // The empty Sessions view's "Create a Contract" button runs New Contract.
    await workbench.openViewContainer('Loop Ledger');
    await workbench.pane('Sessions').getByRole('button', { name: 'Create a Contract' }).click();
    const input = workbench.page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    // New Contract first asks which kind: the work-loop JSON contract.
    await workbench.page
      .locator('.quick-input-widget .monaco-list-row', { hasText: 'Work-loop contract (JSON)' })
      .click();
    await workbench.page.locator('.quick-input-widget', { hasText: 'Name of the contract' }).waitFor();
    await input.fill('smoke-blank');
    await workbench.page.keyboard.press('Enter');
    await workbench.page.locator('.tabs-container .tab.active', { hasText: 'smoke-blank.json' }).waitFor();
    // Every problem in the window, as the status bar counts them: the engine's 12 findings
    // (11 blank fields and the nameless dimension) and no schema warning on the same fields.
    const counts = workbench.page.locator('.statusbar-item[id="status.problems"]');
    await counts.filter({ hasText: /^\s*12\s+0/ }).waitFor();
    const rows = await workbench.problems('declared empty');
    const problems = rows.filter((row) => !row.startsWith('smoke-blank.json'));
    assert.ok(problems.length > 0, rows.join('\n'));
    for (const row of problems) assert.match(row, /Loop Ledger/, `not one of ours: ${row}`);
    assert.ok(
      !rows.some((row) => /Incorrect type|does not match|Missing property|Value is not accepted/.test(row)),
    );
    await workbench.screenshot('smoke-03-new-contract-problems');
  });
});
