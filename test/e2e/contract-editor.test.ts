import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Workbench } from './workbench';

const CONTRACT = '.loop/contracts/tidy-greeting.json';
interface Contract {
  quality_rubric: { direction: string }[];
}

const DISAGREES = 'is "higher-is-better" but the target moves the other way';
const FIX = 'Change the direction to "lower-is-better"';

describe('contract editor in the workbench', function () {
  let workbench: Workbench;

  before(async function () {
    workbench = await Workbench.open({ fixture: 'contract-workspace' });
  });

  after(async function () {
    await workbench?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await workbench?.screenshot(`failed-${this.currentTest.title}`);
  });

  const page = () => workbench.page;
  const editor = () => page().locator('.editor-instance .monaco-editor').first();
  /** The editor, once it has the keyboard focus (Monaco marks it `focused`). */
  const focusedEditor = () => page().locator('.editor-instance .monaco-editor.focused').first();

  it('opens a contract with its CodeLens and no finding', async function () {
    await workbench.openFile(CONTRACT);
    await editor().locator('.codelens-decoration', { hasText: 'Open loop with this contract' }).waitFor();
    await editor().locator('.codelens-decoration', { hasText: 'Validate' }).waitFor();
    assert.equal(await editor().locator('.squiggly-error').count(), 0);
    await workbench.screenshot('contract-01-codelens');
  });

  it('typing a direction that disagrees with baseline → target shows a squiggle and a Problems entry', async function () {
    // Select the first dimension's direction word with Find, then type over it.
    await editor().click();
    await page().keyboard.press('Control+F');
    await page().keyboard.type('lower-is-better');
    await page().keyboard.press('Escape');
    await page().keyboard.type('higher-is-better', { delay: 20 });
    await page().keyboard.press('Escape'); // close the completion list the JSON editor offers
    await editor().locator('.squiggly-error').first().waitFor({ timeout: 15_000 });
    await workbench.screenshot('contract-02-squiggle');
    const rows = await workbench.problems(DISAGREES);
    assert.ok(
      rows.some((row) => row.includes('quality_rubric[0].direction') && row.includes('direction-disagrees')),
      rows.join('\n'),
    );
    await workbench.screenshot('contract-03-problems');
  });

  it('applies the quick fix from the lightbulb (Ctrl+.) menu and the finding goes away', async function () {
    // The way a keyboard user does it, with no click on the lightbulb (sticky scroll and other
    // overlay widgets may cover it): read where the finding is from its Problems entry, move the
    // editor's cursor inside the squiggle with Go to Line (Ctrl+G), then press Ctrl+. there.
    const entry = (await workbench.problems(DISAGREES)).find((row) => row.includes(DISAGREES)) ?? '';
    const at = /\[Ln (\d+), Col (\d+)\]/.exec(entry);
    assert.ok(at, `no position in the Problems entry: ${entry}`);
    const [line, column] = [Number(at[1]), Number(at[2]) + 1]; // one past the squiggle's start
    await workbench.runCommand('View: Focus Active Editor Group');
    await focusedEditor().waitFor({ timeout: 15_000 });
    await page().keyboard.press('Control+G');
    const palette = page().locator('.quick-input-widget');
    await palette.waitFor({ state: 'visible', timeout: 15_000 });
    await palette.locator('input').fill(`:${line}:${column}`);
    await page().keyboard.press('Enter');
    await palette.waitFor({ state: 'hidden', timeout: 15_000 });
    await page()
      .locator('.statusbar-item', { hasText: `Ln ${line}, Col ${column}` })
      .first()
      .waitFor();
    await focusedEditor().waitFor({ timeout: 15_000 });
    // Ctrl+. with the focus in the editor opens the quick-fix menu (the lightbulb's menu) at the cursor.
    const menu = page().locator('.action-widget').first(); // the outer one (it nests a submenu panel)
    const fix = menu.locator('.action-item, .monaco-list-row', { hasText: FIX });
    for (let attempt = 1; ; attempt++) {
      await page().keyboard.press('Control+.');
      try {
        await fix.first().waitFor({ timeout: 5_000 });
        break;
      } catch (error) {
        // The code actions may still be computing: close whatever opened and ask again.
        if (attempt === 3) throw error;
        await page().keyboard.press('Escape');
        await focusedEditor().waitFor({ timeout: 15_000 });
      }
    }
    await workbench.screenshot('contract-04-quick-fix-menu');
    // Choose the fix by its label: move the menu's focus down to it, then Enter.
    const focusedFix = menu.locator('.monaco-list-row.action.focused', { hasText: FIX });
    const rows = await menu.locator('.monaco-list-row.action').count();
    for (let moved = 0; (await focusedFix.count()) === 0 && moved < rows; moved++) {
      await page().keyboard.press('ArrowDown');
    }
    await focusedFix.waitFor({ timeout: 5_000 });
    await page().keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden', timeout: 15_000 });
    await editor().locator('.squiggly-error').first().waitFor({ state: 'detached', timeout: 15_000 });
    await page()
      .locator('.markers-panel .monaco-list-row', { hasText: DISAGREES })
      .waitFor({ state: 'detached', timeout: 15_000 });
    // The fix leaves the focus in the editor; save (code-server may also auto-save) and read the file.
    await page().keyboard.press('Control+S');
    const directions = () => {
      try {
        const saved = JSON.parse(readFileSync(join(workbench.workspace, CONTRACT), 'utf8')) as Contract;
        return saved.quality_rubric.map((d) => d.direction);
      } catch {
        return []; // caught mid-write
      }
    };
    for (let waited = 0; directions()[0] !== 'lower-is-better' && waited < 15_000; waited += 200) {
      await page().waitForTimeout(200);
    }
    assert.deepEqual(directions(), ['lower-is-better', 'higher-is-better']);
    await workbench.screenshot('contract-05-fixed');
  });
});
