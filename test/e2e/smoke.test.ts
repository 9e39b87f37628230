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

  it('lists a JSON syntax error in the Problems panel', async function () {
    await workbench.openFile('data/broken.json');
    const rows = await workbench.problems('broken.json');
    assert.ok(rows.length >= 2, `expected the file row and at least one problem, got: ${rows.join(' | ')}`);
    await workbench.screenshot('smoke-03-problems');
  });
});
