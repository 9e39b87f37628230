// The critic-brief panel end to end, in a real workbench: a fixture git repository with an open
// session and an uncommitted change; assemble the brief from the palette, read the packet in the
// webview, record PASS from the panel's form, then find the verdict on disk and in the tree.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { changeWorkingTree, prepareRepository, SESSION, VERIFICATION_FILE } from './brief-fixture';
import { assertAxeClean } from './axe';
import { answerQuickInput, startPaletteCommand } from './brief-quick-input';
import { expandRow, repoRoot, Workbench } from './workbench';

const UI_TIMEOUT = 30_000;

interface LedgerOnDisk {
  pending_brief: { brief_id: string } | null;
  iterations: {
    n: number;
    critic_verdict: string | null;
    critic_brief: string | null;
    critic_next: string | null;
  }[];
}

/**
 * Reloads the window the way a user does, with "Developer: Reload Window": the workbench first
 * writes its state (open editors, each webview's saved state) and then reloads the page. A bare
 * `page.reload()` is a browser refresh instead: VS Code for the Web starts that write from
 * `beforeunload` without waiting for it, so the next load may restore an older snapshot, one
 * taken before the panel had saved any state, and the panel cannot come back.
 */
async function reloadWindow(page: Page): Promise<void> {
  const title = 'Developer: Reload Window';
  const palette = page.locator('.quick-input-widget');
  await page.keyboard.press('F1');
  await palette.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
  await palette.locator('input').fill(`>${title}`);
  await palette.locator('.monaco-list-row', { hasText: title }).first().waitFor({ timeout: UI_TIMEOUT });
  // Listen before pressing Enter: the command navigates once the state is written.
  const reloaded = page.waitForEvent('load', { timeout: 60_000 });
  await page.keyboard.press('Enter');
  await reloaded;
}

/** The panel's document as a Frame (evaluate needs one; the FrameLocator cannot run scripts). */
async function panelFrame(page: Page): Promise<Frame> {
  for (const frame of page.frames()) {
    if (
      (await frame
        .locator('#brief-id')
        .count()
        .catch(() => 0)) > 0
    )
      return frame;
  }
  throw new Error('the critic brief webview frame was not found');
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

describe('critic brief panel', function () {
  let workbench: Workbench;
  let briefId = '';

  before(async function () {
    workbench = await Workbench.open();
    prepareRepository(workbench.workspace);
    changeWorkingTree(workbench.workspace);
  });

  after(async function () {
    await workbench?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await workbench?.screenshot(`failed-${this.currentTest.title}`);
  });

  const ledger = (): LedgerOnDisk =>
    JSON.parse(readFileSync(join(workbench.workspace, '.loop', 'ledgers', `${SESSION}.json`), 'utf8'));

  it('assembles a brief from the working tree and shows the packet side by side', async function () {
    const page = workbench.page;
    await startPaletteCommand(page, 'Loop Ledger: Assemble Critic Brief');
    await answerQuickInput(page, 'Assemble Critic Brief: session', { pick: SESSION });
    await answerQuickInput(page, 'Assemble Critic Brief: change', { pick: 'Working tree vs HEAD' });
    await answerQuickInput(page, 'Assemble Critic Brief: verification output', { pick: 'From a file' });
    // A missing file first: the box checks the disk asynchronously (the host never waits), shows why,
    // and stays open on Enter; then the real file is accepted.
    await answerQuickInput(page, 'Assemble Critic Brief: verification output file', {
      text: '.loop/evidence/missing.txt',
    });
    const widget = page.locator('.quick-input-widget');
    await widget
      .locator('.quick-input-message', { hasText: 'No such file: .loop/evidence/missing.txt' })
      .waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('brief-00-verification-file-missing');
    await answerQuickInput(page, 'Assemble Critic Brief: verification output file', {
      text: VERIFICATION_FILE,
    });
    const view = workbench.webview();
    await view.locator('body[data-ready="true"]').waitFor({ timeout: UI_TIMEOUT });
    briefId = (await view.locator('#brief-id').innerText()).trim();
    assert.match(briefId, /^[0-9a-f]{16}$/);
    assert.equal(ledger().pending_brief?.brief_id, briefId);
    await view.locator('.file-list', { hasText: 'src/greet.js' }).waitFor();
    await view.locator('.d2h-file-side-diff').first().waitFor({ timeout: UI_TIMEOUT });
    await view.locator('#rubric', { hasText: 'tests-passing' }).waitFor();
    await view.locator('#verification', { hasText: '12 passing' }).waitFor();
    await view.locator('#scope .badge.provenance-verified').waitFor();
    const text = await view.locator('body').innerText();
    assert.ok(!/summary/i.test(text), 'the panel shows no builder summary');
    await workbench.screenshot('brief-01-panel-light');
  });

  it('gives every element a unique id, and each label names its own field', async function () {
    const frame = await panelFrame(workbench.page);
    const found = await frame.evaluate(() => {
      const ids = Array.from(document.querySelectorAll('[id]')).map((el) => el.id);
      const duplicates = ids.filter((id, i) => ids.indexOf(id) !== i);
      const labels = Array.from(document.querySelectorAll('vscode-label[for]')).map((label) => {
        const target = document.getElementById(label.getAttribute('for') ?? '');
        return `${label.textContent?.trim()} → ${target?.tagName.toLowerCase() ?? 'nothing'}`;
      });
      return { duplicates, labels };
    });
    assert.deepEqual(found.duplicates, []);
    assert.ok(found.labels.includes('Verdict → vscode-single-select'), found.labels.join('\n'));
    for (const label of found.labels) assert.doesNotMatch(label, /→ (nothing|section)$/);
  });

  it('defaults the decision from the verdict until the critic picks one', async function () {
    const view = workbench.webview();
    const valueOf = (id: string) => view.locator(`#${id}`).evaluate((el) => (el as HTMLSelectElement).value);
    assert.equal(await valueOf('decision'), 'retain');
    // Chosen with the keyboard as a person does: Enter opens the list, arrows move, Enter picks.
    const choose = async (key: 'ArrowDown' | 'ArrowUp', times: number) => {
      await view.locator('#verdict').focus();
      await workbench.page.keyboard.press('Enter');
      for (let i = 0; i < times; i++) await workbench.page.keyboard.press(key);
      await workbench.page.keyboard.press('Enter');
    };
    await choose('ArrowDown', 2); // PASS, FAIL, REVISE
    assert.equal(await valueOf('verdict'), 'REVISE');
    assert.equal(await valueOf('decision'), 'revise');
    await choose('ArrowUp', 1);
    assert.equal(await valueOf('verdict'), 'FAIL');
    assert.equal(await valueOf('decision'), 'revert');
    await workbench.screenshot('brief-07-decision-follows-verdict');
    await choose('ArrowUp', 1);
    assert.equal(await valueOf('verdict'), 'PASS');
    assert.equal(await valueOf('decision'), 'retain');
  });

  it('scrolls a long diff line in its column, and wraps it with "Wrap lines"', async function () {
    const frame = await panelFrame(workbench.page);
    const measure = () =>
      frame.evaluate(() => {
        const line = Array.from(document.querySelectorAll('.d2h-file-side-diff .d2h-code-line-ctn')).find(
          (el) => el.textContent?.includes('END'),
        ) as HTMLElement;
        const side = line.closest('.d2h-file-side-diff') as HTMLElement;
        side.scrollLeft = side.scrollWidth;
        const lineBox = line.getBoundingClientRect();
        const sideBox = side.getBoundingClientRect();
        return {
          scrolls: side.scrollWidth > side.clientWidth + 1,
          endVisible: lineBox.right <= sideBox.right + 1 && lineBox.right > sideBox.left,
          lineHeight: lineBox.height,
          fontSize: parseFloat(getComputedStyle(line).fontSize),
        };
      });
    const scrolled = await measure();
    assert.equal(scrolled.scrolls, true, 'the column scrolls sideways');
    assert.equal(scrolled.endVisible, true, 'the end of the line can be scrolled into view');
    await workbench.screenshot('brief-05-long-line-scrolled');
    const view = workbench.webview();
    await view.locator('#wrap-lines').click();
    assert.equal(await view.locator('#wrap-lines').getAttribute('aria-pressed'), 'true');
    const wrapped = await measure();
    assert.equal(wrapped.scrolls, false, 'wrapped lines need no sideways scroll');
    assert.equal(wrapped.endVisible, true);
    assert.ok(wrapped.lineHeight > 2 * wrapped.fontSize, `the line wraps (height ${wrapped.lineHeight})`);
    await workbench.screenshot('brief-06-long-line-wrapped');
    await view.locator('#wrap-lines').click();
    assert.equal(await view.locator('#wrap-lines').getAttribute('aria-pressed'), 'false');
  });

  it('passes an axe-core accessibility check', async function () {
    const frame = await panelFrame(workbench.page);
    await frame.evaluate(readFileSync(join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
    const violations: Violation[] = await frame.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run(
              context: Document,
              options: object,
            ): Promise<{
              violations: {
                id: string;
                impact: string | null;
                help: string;
                nodes: { target: unknown[] }[];
              }[];
            }>;
          };
        }
      ).axe;
      const result = await axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => JSON.stringify(n.target)),
      }));
    });
    for (const v of violations)
      console.log(`      axe: ${v.impact} ${v.id} — ${v.help}: ${v.targets.slice(0, 3).join(' ')}`);
    assert.deepEqual(
      violations.map((v) => v.id),
      [],
    );
  });

  it('follows a dark theme, axe-core clean', async function () {
    // A workspace setting takes effect at once, like choosing the theme in the picker.
    mkdirSync(join(workbench.workspace, '.vscode'), { recursive: true });
    writeFileSync(
      join(workbench.workspace, '.vscode', 'settings.json'),
      JSON.stringify({ 'workbench.colorTheme': 'Default Dark Modern' }),
    );
    await workbench.page.locator('.monaco-workbench.vs-dark').waitFor({ timeout: UI_TIMEOUT });
    await workbench.webview().locator('body.vscode-dark').waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('brief-02-panel-dark');
    // Contrast included: the diff's line numbers and dimmed texts must stay readable in the dark.
    await assertAxeClean(await panelFrame(workbench.page));
  });

  it('records PASS from the panel, spends the brief, and shows the record', async function () {
    const view = workbench.webview();
    await view.locator('#criticNext textarea').fill('Cover the empty-name case with a test.');
    await view.locator('#evidencePaths textarea').fill(VERIFICATION_FILE);
    await view.locator('#actions textarea').fill('friendlier-greeting');
    await view.locator('#submit-verdict').click();
    await view.locator('.result', { hasText: 'Recorded as iteration 1' }).waitFor({ timeout: UI_TIMEOUT });
    await view.locator('.spent', { hasText: 'This brief is spent' }).waitFor();
    const onDisk = ledger();
    assert.equal(onDisk.pending_brief, null);
    assert.equal(onDisk.iterations.length, 1);
    assert.equal(onDisk.iterations[0]!.critic_verdict, 'PASS');
    assert.equal(onDisk.iterations[0]!.critic_brief, briefId);
    assert.equal(onDisk.iterations[0]!.critic_next, 'Cover the empty-name case with a test.');
    await view.locator('.spent').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await workbench.screenshot('brief-03-verdict-recorded');
  });

  it('shows the recorded iteration in the Sessions tree', async function () {
    await workbench.openViewContainer('Loop Ledger');
    const tree = workbench.pane('Sessions');
    const session = tree.locator('.monaco-list-row', { hasText: SESSION }).first();
    await session.waitFor({ timeout: UI_TIMEOUT });
    const iteration = tree.locator('.monaco-list-row', { hasText: '#1 continue' }).first();
    // Expand session → epoch until the iteration row shows.
    for (let attempt = 0; attempt < 3 && !(await iteration.isVisible()); attempt++) {
      const collapsed = tree.locator('.monaco-list-row[aria-expanded="false"]').first();
      if (!(await collapsed.isVisible())) break;
      await expandRow(collapsed);
      await workbench.page.waitForTimeout(300);
    }
    await iteration.waitFor({ timeout: UI_TIMEOUT });
    await workbench.screenshot('brief-04-sessions-tree');
  });

  it('restores the panel after a window reload, still spent', async function () {
    const page = workbench.page;
    await reloadWindow(page);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => 'driver' in window, undefined, { timeout: UI_TIMEOUT });
    await page.evaluate(() =>
      (
        window as unknown as { driver: { whenWorkbenchRestored(): Promise<void> } }
      ).driver.whenWorkbenchRestored(),
    );
    const view = workbench.webview();
    await view.locator('body[data-ready="true"]').waitFor({ timeout: 60_000 });
    assert.equal((await view.locator('#brief-id').innerText()).trim(), briefId);
    await view.locator('.spent', { hasText: 'This brief is spent' }).waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await view.locator('#submit-verdict').getAttribute('disabled'), '');
  });
});
