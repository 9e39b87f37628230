import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expandRow, Workbench } from './workbench';

// Record an iteration from the palette in the real workbench, see it in the Sessions tree, and
// check the ledger on disk.
describe('Record Iteration from the palette', function () {
  let workbench: Workbench;

  before(async function () {
    workbench = await Workbench.open({ fixture: 'sessions-workspace' });
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

  /** Waits until the quick input shows `cue` (in its text or placeholder), types `text` and presses Enter. */
  async function answer(cue: string, text: string | undefined): Promise<void> {
    const widget = quickInput();
    await widget.waitFor({ state: 'visible' });
    await widget
      .locator(`input[placeholder*="${cue}"], :text("${cue}")`)
      .first()
      .waitFor({ timeout: 30_000 });
    const input = widget.locator('input.input');
    if (text !== undefined) await input.fill(text);
    await page().keyboard.press('Enter');
  }

  it('shows the sessions tree with statuses, epochs and iterations', async function () {
    await workbench.openViewContainer('Loop Ledger');
    await row('beta').waitFor();
    await expandRow(row('alpha'));
    await row('Epoch 2 — Rework the parser after review').waitFor();
    await row('#4 escalate').waitFor();
    assert.match(await row('legacy-run').innerText(), /original format/);
    assert.match(await row('broken').innerText(), /unreadable ledger/);
    await workbench.screenshot('sessions-01-tree');
  });

  it('records an iteration through the multi-step quick input and shows it in the tree and on disk', async function () {
    // Not workbench.runCommand: it waits for the palette to close, and this command keeps the
    // quick input open for its own first question.
    await page().keyboard.press('F1');
    await quickInput().locator('input').fill('>Loop Ledger: Record Iteration');
    await quickInput()
      .locator('.monaco-list-row', { hasText: 'Loop Ledger: Record Iteration' })
      .first()
      .waitFor();
    await page().keyboard.press('Enter');
    await answer('Which session?', 'beta');
    await answer('Outcome of this iteration', 'continue');
    await answer('Completed so far', 'e2e-check');
    await answer('Measurements', 'Record measurements');
    await answer('failing-tests', undefined); // keep the prefilled last reading
    await workbench.screenshot('sessions-02-measurement-step');
    await answer('coverage', '78');
    await answer('Add details?', undefined);
    await quickInput().waitFor({ state: 'hidden' });

    await expandRow(row('beta'));
    // alpha (expanded above) has a "#3 continue" too: find the new row by its action.
    await row('e2e-check').waitFor();
    assert.match(await row('e2e-check').innerText(), /#3 continue/);
    assert.match(await row('beta').innerText(), /open · 3\/10 · pass/);
    await workbench.screenshot('sessions-03-recorded');

    const ledger = JSON.parse(
      readFileSync(join(workbench.workspace, '.loop', 'ledgers', 'beta.json'), 'utf8'),
    );
    const record = ledger.iterations.at(-1);
    assert.equal(record.n, 3);
    assert.deepEqual(record.actions, ['e2e-check']);
    assert.deepEqual(record.measurements, { 'failing-tests': 2, coverage: 78 });

    const statusBar = page().locator('.statusbar-item', { hasText: 'beta 3/10' });
    await statusBar.waitFor();
    assert.match(await statusBar.innerText(), /beta 3\/10 · continue · pass/);
  });
});
