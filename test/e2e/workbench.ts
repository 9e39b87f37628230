// Drives a real VS Code workbench (code-server started by scripts/run-e2e.mjs) in Chromium,
// with Loop Ledger loaded from source into a fresh copy of a fixture workspace.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';

// Bundled to out/test/e2e/*.js, so the repository root is three levels up.
export const repoRoot = resolve(__dirname, '..', '..', '..');
export const shotsDir = join(repoRoot, 'test', 'e2e', 'shots');

const UI_TIMEOUT = 30_000;

interface ServerInfo {
  baseUrl: string;
  extensionPath: string;
}

function serverInfo(): ServerInfo {
  const baseUrl = process.env.LOOP_LEDGER_SERVER_URL;
  if (!baseUrl)
    throw new Error('LOOP_LEDGER_SERVER_URL is not set: run the e2e tier with node scripts/run-e2e.mjs');
  return { baseUrl, extensionPath: process.env.LOOP_LEDGER_EXTENSION_PATH ?? repoRoot };
}

/**
 * Expands a tree row by its twistie, if it is collapsed. Clicking the row itself runs the row's
 * command (a session opens its overview, which takes the focus), so it is not a way to expand.
 */
export async function expandRow(row: Locator): Promise<void> {
  await row.waitFor();
  if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
}

export interface OpenOptions {
  /** Folder under test/fixtures/ copied into a fresh temporary workspace. */
  fixture?: string;
  viewport?: { width: number; height: number };
  /** Runs on the fresh workspace copy before the workbench opens it (e.g. to make a git repo). */
  prepare?: (workspace: string) => void;
  /** A .code-workspace file (relative to the workspace copy) to open instead of the folder. */
  workspaceFile?: string;
}

export class Workbench {
  private constructor(
    private readonly browser: Browser,
    readonly page: Page,
    /** Absolute path of this workbench's temporary workspace folder. */
    readonly workspace: string,
  ) {}

  /** Opens the workbench and waits until it is restored and Loop Ledger's contributions are shown. */
  static async open({
    fixture = 'vscode-workspace',
    viewport = { width: 1400, height: 900 },
    prepare,
    workspaceFile,
  }: OpenOptions = {}) {
    const { baseUrl, extensionPath } = serverInfo();
    const workspace = mkdtempSync(join(tmpdir(), 'loop-ledger-e2e-'));
    cpSync(join(repoRoot, 'test', 'fixtures', fixture), workspace, { recursive: true });
    prepare?.(workspace);
    const browser = await chromium.launch(chromiumLaunchOptions());
    const page = await browser.newPage({ viewport });
    if (process.env.DEBUG) page.on('console', (m) => console.log(`[browser ${m.type()}] ${m.text()}`));
    const workbench = new Workbench(browser, page, workspace);
    try {
      const remote = (path: string) => `vscode-remote://${new URL(baseUrl).host}${path}`;
      const payload = JSON.stringify([['extensionDevelopmentPath', remote(extensionPath)]]);
      await page.goto(
        workspaceFile === undefined
          ? `${baseUrl}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`
          : `${baseUrl}/?workspace=${encodeURIComponent(join(workspace, workspaceFile))}&payload=${encodeURIComponent(payload)}`,
        // A busy shared machine can take well over playwright's default 30 s to serve the workbench.
        { timeout: 180_000 },
      );
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      await page.waitForFunction(() => 'driver' in window, undefined, { timeout: UI_TIMEOUT });
      await page.evaluate(() =>
        (
          window as unknown as { driver: { whenWorkbenchRestored(): Promise<void> } }
        ).driver.whenWorkbenchRestored(),
      );
      // The palette lists only commands known when it opens: wait for our contributions first.
      await workbench.activityBarItem('Loop Ledger').waitFor({ timeout: 60_000 });
      return workbench;
    } catch (error) {
      await workbench.screenshot('open-failed').catch(() => undefined);
      await workbench.close();
      throw error;
    }
  }

  activityBarItem(title: string) {
    return this.page.locator(`.activitybar a.action-label[aria-label^="${title}"]`);
  }

  /**
   * Shows a view container from the activity bar (a click on an already open one would hide it).
   * Ends only once the container is shown: a click that lands while the workbench is still laying
   * out its activity bar can be lost, so an unshown container is clicked again.
   */
  async openViewContainer(title: string): Promise<void> {
    const item = this.activityBarItem(title);
    const shown = () =>
      item.evaluate((el) => el.closest('.action-item')?.classList.contains('checked') ?? false);
    for (let attempt = 1; !(await shown()); attempt++) {
      if (attempt > 3) throw new Error(`the "${title}" view container did not open after 3 clicks`);
      // On the item, not its label: the count badge (loops that need a person) lies over the whole
      // label and takes the click; it is inside the item, so the item still gets it.
      await this.page
        .locator(`.activitybar .action-item:has(a.action-label[aria-label^="${title}"])`)
        .click();
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && !(await shown())) await this.page.waitForTimeout(100);
    }
  }

  /** What the side bar shows, as text: printed when a test fails to find a row in it. */
  async sideBarText(): Promise<string> {
    return this.page
      .locator('.part.sidebar')
      .innerText({ timeout: 5_000 })
      .catch((error: unknown) => `(no side bar: ${String(error)})`);
  }

  /** A view's pane, found by its header title. */
  pane(title: string) {
    return this.page.locator('.pane', { has: this.page.locator('.pane-header', { hasText: title }) });
  }

  /** Runs a command through F1 by its palette title, retrying while the palette is still filling. */
  async runCommand(title: string, attempts = 5): Promise<void> {
    const palette = this.page.locator('.quick-input-widget');
    for (let attempt = 1; attempt <= attempts; attempt++) {
      await this.page.keyboard.press('F1');
      await palette.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
      await palette.locator('input').fill(`>${title}`);
      const row = palette.locator('.monaco-list-row', { hasText: title }).first();
      try {
        await row.waitFor({ timeout: 8_000 });
      } catch {
        const listed = await palette.locator('.monaco-list-row').allInnerTexts();
        console.log(
          `      (palette: "${title}" not listed yet, attempt ${attempt} of ${attempts}; listed ${JSON.stringify(listed.slice(0, 4))})`,
        );
        await this.page.keyboard.press('Escape');
        await this.page.waitForTimeout(1_000);
        continue;
      }
      // A click runs exactly the matched row; Enter would run whichever row is active, which
      // while the list is still filtering may be another ("Reveal Ledger File" for "…Folder").
      await row.click();
      try {
        await palette.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
      } catch {
        throw new Error(
          `"${title}" ran but a quick input stayed open: a command that asks a question starts with startPaletteCommand`,
        );
      }
      return;
    }
    throw new Error(`command not found in the palette after ${attempts} attempts: ${title}`);
  }

  /**
   * Texts of the notifications in the notification center; when `waitFor` is given, first waits
   * until one contains it. The smoke-test driver suppresses toasts, so the center is the place to read.
   */
  async readNotifications(waitFor?: string | RegExp): Promise<string[]> {
    await this.runCommand('Notifications: Show Notifications');
    const items = this.page.locator('.notifications-center .notification-list-item');
    if (waitFor !== undefined)
      await items.filter({ hasText: waitFor }).first().waitFor({ timeout: UI_TIMEOUT });
    const texts = (await items.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    return texts;
  }

  async hideNotifications(): Promise<void> {
    await this.runCommand('Notifications: Hide Notifications');
  }

  /** Row texts of the Problems panel, opened first; waits for a row containing `waitFor` when given. */
  async problems(waitFor?: string | RegExp): Promise<string[]> {
    await this.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
    const rows = this.page.locator('.markers-panel .monaco-list-row');
    if (waitFor !== undefined)
      await rows.filter({ hasText: waitFor }).first().waitFor({ timeout: UI_TIMEOUT });
    return (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  }

  /** Opens a workspace file through Quick Open. */
  async openFile(relativePath: string): Promise<void> {
    const palette = this.page.locator('.quick-input-widget');
    await this.page.keyboard.press('Control+P');
    await palette.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    await palette.locator('input').fill(relativePath);
    const name = relativePath.split('/').pop() ?? relativePath;
    await palette.locator('.monaco-list-row', { hasText: name }).first().waitFor({ timeout: UI_TIMEOUT });
    await this.page.keyboard.press('Enter');
    await this.page
      .locator('.tabs-container .tab.active', { hasText: name })
      .waitFor({ timeout: UI_TIMEOUT });
  }

  /** The content document of the active webview (outer iframe → inner iframe). */
  webview(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  }

  /** Saves a screenshot of the whole window as test/e2e/shots/<name>.png and returns its path. */
  async screenshot(name: string): Promise<string> {
    mkdirSync(shotsDir, { recursive: true });
    const path = join(shotsDir, `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    rmSync(this.workspace, { recursive: true, force: true });
  }
}
