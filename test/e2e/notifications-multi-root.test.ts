// Notifications in a multi-root workspace: two folders, alpha and beta, each with a session
// `build` (one id in both). A CLI write stalls alpha's: one notification, naming alpha, whose
// Open Overview opens alpha's overview (its contract's purpose), and nothing for beta. Then beta's
// stalls too: its own notification (the remembered key includes the folder, so alpha's event
// does not swallow it), and alpha's is not shown again.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot, Workbench } from './workbench';

const SESSION = 'build';
const FOLDERS = { alpha: 'Alpha: raise parser coverage', beta: 'Beta: cut flaky tests' } as const;
type Folder = keyof typeof FOLDERS;

function cli(root: string, ...args: string[]): void {
  execFileSync(
    process.execPath,
    [join(repoRoot, 'dist', 'cli.js'), ...args, '--root', root, '--session', SESSION],
    {
      stdio: 'pipe',
    },
  );
}

/** The same state twice in a row: the circular-state predicate stalls the second iteration. */
function iterateSameState(root: string): void {
  cli(root, 'iterate', '--outcome', 'continue', '--state', 'same');
}

function prepare(workspace: string): void {
  const contract = JSON.parse(
    readFileSync(
      join(repoRoot, 'test', 'fixtures', 'sessions-workspace', '.loop', 'contracts', 'parser-coverage.json'),
      'utf8',
    ),
  ) as Record<string, unknown>;
  for (const [folder, purpose] of Object.entries(FOLDERS)) {
    const root = join(workspace, folder);
    mkdirSync(join(root, '.loop', 'contracts'), { recursive: true });
    const file = join(root, '.loop', 'contracts', 'build.json');
    writeFileSync(file, JSON.stringify({ ...contract, purpose }, null, 2));
    cli(root, 'open', '--contract', file);
    iterateSameState(root);
  }
  writeFileSync(
    join(workspace, 'multi.code-workspace'),
    JSON.stringify({ folders: Object.keys(FOLDERS).map((path) => ({ path })) }),
  );
}

/** The notification toasts and the notification center's items, as text. */
async function stallNotifications(workbench: Workbench, waitFor: RegExp): Promise<string[]> {
  const texts = await workbench.readNotifications(waitFor);
  return texts.filter((text) => /build in \w+ \(epoch 1, iteration 2\) stalled/.test(text));
}

/** True once some frame of the page shows an overview with `text` in it. */
async function overviewShows(page: Page, text: string, timeout: number): Promise<boolean> {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      const found = await frame
        .locator('body[data-page="overview"][data-ready="true"]', { hasText: text })
        .count()
        .catch(() => 0);
      if (found > 0) return true;
    }
    await page.waitForTimeout(100);
  }
  return false;
}

describe('notifications in a multi-root workspace', function () {
  let workbench: Workbench;

  before(async function () {
    this.timeout(400_000);
    workbench = await Workbench.open({ prepare, workspaceFile: 'multi.code-workspace' });
    // As a person watching loops has it: the Loop Ledger view shown.
    await workbench.openViewContainer('Loop Ledger');
    try {
      for (const folder of Object.keys(FOLDERS))
        await workbench.pane('Sessions').locator('.monaco-list-row', { hasText: folder }).first().waitFor();
    } catch (error) {
      await workbench.screenshot('failed-multi-root-folders-shown').catch(() => undefined);
      // CI keeps only the output: say what the side bar showed instead of the folders.
      console.log(`side bar when the folders were not shown:\n${await workbench.sideBarText()}`);
      throw error;
    }
  });

  after(async function () {
    await workbench?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await workbench?.screenshot(`failed-${this.currentTest.title}`);
  });

  it("a stall in one folder notifies once with that folder's overview; the other folder's session is not affected", async function () {
    this.timeout(240_000);
    const root = (folder: Folder) => join(workbench.workspace, folder);

    iterateSameState(root('alpha'));
    const first = await stallNotifications(workbench, /build in alpha .* stalled/);
    assert.deepEqual(
      first.map((t) => /build in (\w+)/.exec(t)?.[1]),
      ['alpha'],
      `one notification, for alpha: ${first.join(' | ')}`,
    );
    await workbench.screenshot('notifications-multi-root-alpha');
    const item = workbench.page
      .locator('.notifications-center .notification-list-item', { hasText: 'build in alpha' })
      .first();
    await item.getByRole('button', { name: 'Open Overview' }).click();
    assert.ok(await overviewShows(workbench.page, FOLDERS.alpha, 60_000), "alpha's overview opened");
    assert.equal(
      await overviewShows(workbench.page, FOLDERS.beta, 1_000),
      false,
      "beta's overview did not open",
    );

    // Beta's session of the same id stalls now: its own notification, alpha's not repeated.
    iterateSameState(root('beta'));
    const both = await stallNotifications(workbench, /build in beta .* stalled/);
    assert.deepEqual(
      both.map((t) => /build in (\w+)/.exec(t)?.[1]).sort(),
      ['beta'],
      `only beta's is new (alpha's was answered): ${both.join(' | ')}`,
    );
    await workbench.screenshot('notifications-multi-root-beta');
  });
});
