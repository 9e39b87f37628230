// The Sessions view while its first read runs: a long ledger (tens of megabytes) takes the ledger
// worker a while to read, and until then the view must not say there are no sessions. The page
// watches its own DOM from before the view opens and records whether the "no sessions" welcome
// text or the view's progress bar ever appeared. Then the ledger is deleted: with no session left
// the welcome text must appear.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serializeLedger } from '../../src/store/ledger-file';
import { syntheticLedger } from '../unit/overview/synthetic-ledger';
import { expandRow, Workbench } from './workbench';

const SESSION = 'slow-first-read';
/** About 30 MB: seconds of reading in the worker, long enough to see the view before it is read. */
const COUNT = 30_000;
const WELCOME = 'Sessions recorded there will be listed here';

function prepare(workspace: string): void {
  const dir = join(workspace, '.loop', 'ledgers');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${SESSION}.json`), serializeLedger(syntheticLedger(COUNT, SESSION)));
}

interface Seen {
  welcome: boolean;
  progress: boolean;
}

describe('Sessions view while its first read runs', function () {
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

  it('shows its progress, not the "no sessions" text, until the long ledger is read; the text once none is left', async function () {
    this.timeout(240_000);
    const { page } = workbench;
    // Watch from before the view is opened: every change of the DOM is looked at.
    await page.evaluate((welcome) => {
      const seen = { welcome: false, progress: false };
      (window as unknown as { loopLedgerSeen: Seen }).loopLedgerSeen = seen;
      const look = (): void => {
        for (const pane of Array.from(document.querySelectorAll('.pane'))) {
          if (!pane.querySelector('.pane-header')?.textContent?.includes('Sessions')) continue;
          for (const node of Array.from(pane.querySelectorAll('.welcome-view-content')))
            if (node.textContent?.includes(welcome)) seen.welcome = true;
          if (pane.querySelector('.monaco-progress-container.active')) seen.progress = true;
        }
      };
      new MutationObserver(look).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
      look();
    }, WELCOME);
    await workbench.openViewContainer('Loop Ledger');
    const sessions = workbench.pane('Sessions');
    const row = sessions.locator('.monaco-list-row', { hasText: SESSION });
    await row.waitFor({ timeout: 180_000 });
    const seen = await page.evaluate(() => (window as unknown as { loopLedgerSeen: Seen }).loopLedgerSeen);
    assert.equal(
      seen.welcome,
      false,
      'the "no sessions" welcome text appeared before the first read finished',
    );
    assert.equal(seen.progress, true, 'the view showed no progress while its first read ran');
    await expandRow(row);
    await workbench.screenshot('sessions-loading-read');

    // No session left: now the welcome text is the truth.
    rmSync(join(workbench.workspace, '.loop', 'ledgers', `${SESSION}.json`));
    await sessions.locator('.welcome-view-content', { hasText: WELCOME }).waitFor({ timeout: 60_000 });
    await sessions.getByRole('button', { name: 'Reveal Ledger Folder' }).waitFor();
  });
});
