// A brief panel restored in a really untrusted window. The folder opens in
// Restricted Mode (scripts/run-e2e.mjs runs *.untrusted.test.js with workspace trust on); the test
// trusts it through VS Code's own trust editor, assembles a brief, then takes the trust back with
// "Don't Trust", which makes code-server reload the window. VS Code then restores the panel through
// Loop Ledger's serializer in Restricted Mode: the packet must be readable (re-read from the file
// the panel kept, not from webview state), the verdict form read-only, nothing written, no git run
// (core.fsmonitor names a script that leaves a marker when any git command touches the folder).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { assembleFromWorkingTree, startPaletteCommand } from './brief-quick-input';
import { changeWorkingTree, prepareRepository, SESSION, VERIFICATION_FILE } from './brief-fixture';
import { Workbench } from './workbench';

const UI_TIMEOUT = 30_000;

/** Every file under `dir` with its content, to prove nothing was written. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[full.slice(dir.length)] = readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}

describe('a brief panel restored in a really untrusted window', function () {
  let workbench: Workbench;
  let briefId = '';
  let loopBefore: Record<string, string> = {};
  const marker = () => join(workbench.workspace, '.git', 'GIT-RAN');

  before(async function () {
    assert.equal(process.env.LOOP_LEDGER_WORKSPACE_TRUST, 'on', 'run through scripts/run-e2e.mjs');
    workbench = await Workbench.open({
      prepare: (workspace) => {
        prepareRepository(workspace);
        changeWorkingTree(workspace);
        // VS Code's own git extension would run git once the folder is trusted; only Loop
        // Ledger's git is under test here.
        mkdirSync(join(workspace, '.vscode'), { recursive: true });
        writeFileSync(join(workspace, '.vscode', 'settings.json'), '{ "git.enabled": false }\n');
      },
    });
  });

  after(async function () {
    await workbench?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await workbench?.screenshot(`failed-${this.currentTest.title}`);
  });

  /** Opens VS Code's trust editor (the palette's "Workspaces: Manage Workspace Trust"). */
  async function trustEditor() {
    await startPaletteCommand(workbench.page, 'Workspaces: Manage Workspace Trust');
    const editor = workbench.page.locator('.workspace-trust-editor');
    await editor.waitFor({ timeout: UI_TIMEOUT });
    return editor;
  }

  it('trusts the folder in the trust editor and assembles a brief (git runs: trusted)', async function () {
    const restricted = workbench.page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first();
    await restricted.waitFor({ timeout: UI_TIMEOUT });
    const editor = await trustEditor();
    await editor
      .locator('.monaco-button', { hasText: /^Trust$/ })
      .first()
      .click();
    await restricted.waitFor({ state: 'detached', timeout: UI_TIMEOUT });
    await workbench.page.keyboard.press('Control+W'); // the trust editor
    await assembleFromWorkingTree(workbench.page, SESSION, VERIFICATION_FILE);
    const view = workbench.webview();
    await view.locator('body[data-ready="true"]').waitFor({ timeout: UI_TIMEOUT });
    briefId = (await view.locator('#brief-id').innerText()).trim();
    assert.match(briefId, /^[0-9a-f]{16}$/);
    assert.ok(
      existsSync(join(workbench.workspace, '.loop', 'briefs', `${briefId}.panel.json`)),
      'the packet is kept for a restore',
    );
  });

  it('after "Don\'t Trust" reloads the window, the restored panel shows the brief read-only', async function () {
    // From here on any git command in the folder leaves a marker.
    const hook = join(workbench.workspace, '.git', 'tell-on-git.sh');
    writeFileSync(hook, `#!/bin/sh\necho "$@" >> "${marker()}"\n`);
    chmodSync(hook, 0o755);
    execFileSync('git', ['config', 'core.fsmonitor', hook], { cwd: workbench.workspace, stdio: 'ignore' });
    rmSync(marker(), { force: true });
    loopBefore = snapshot(join(workbench.workspace, '.loop'));

    const page = workbench.page;
    const reloaded = page.waitForEvent('load', { timeout: 60_000 });
    // The folder is trusted through its entry in the trusted-folders table: deleting the entry
    // takes the trust back (code-server then reloads the window, as a remote window does).
    const editor = await trustEditor();
    const row = editor.locator('.monaco-table-tr', { hasText: basename(workbench.workspace) }).first();
    await row.scrollIntoViewIfNeeded();
    await row.hover();
    await row
      .locator('a.action-label[aria-label="Delete Path"], a.action-label[title="Delete Path"]')
      .first()
      .click({ force: true });
    await reloaded;
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => 'driver' in window, undefined, { timeout: UI_TIMEOUT });
    await page.evaluate(() =>
      (
        window as unknown as { driver: { whenWorkbenchRestored(): Promise<void> } }
      ).driver.whenWorkbenchRestored(),
    );
    await page
      .locator('.statusbar-item', { hasText: 'Restricted Mode' })
      .first()
      .waitFor({ timeout: UI_TIMEOUT });

    const view = workbench.webview();
    await view.locator('body[data-ready="true"]').waitFor({ timeout: 60_000 });
    assert.equal((await view.locator('#brief-id').innerText()).trim(), briefId);
    await view.locator('.file-list', { hasText: 'src/greet.js' }).waitFor({ timeout: UI_TIMEOUT });
    await view.locator('#verification', { hasText: '12 passing' }).waitFor({ timeout: UI_TIMEOUT });
    await view.locator('#rubric', { hasText: 'tests-passing' }).waitFor({ timeout: UI_TIMEOUT });
    await view.locator('text=This workspace is not trusted').first().waitFor({ timeout: UI_TIMEOUT });
    assert.equal(await view.locator('#submit-verdict').getAttribute('disabled'), '');
    await workbench.screenshot('untrusted-brief-restored');
    // The read-only notice sits with the verdict form, below the fold at 1400×900: show it too.
    await view.locator('text=This workspace is not trusted').first().scrollIntoViewIfNeeded();
    await workbench.screenshot('untrusted-brief-restored-read-only');
  });

  it('wrote nothing and ran no git command while restoring', async function () {
    assert.deepEqual(snapshot(join(workbench.workspace, '.loop')), loopBefore);
    assert.equal(existsSync(marker()), false, 'a git command ran in the untrusted folder');
    // The detector works: a git command here does leave the marker.
    execFileSync('git', ['status', '--short'], { cwd: workbench.workspace, stdio: 'ignore' });
    assert.equal(existsSync(marker()), true, 'the fsmonitor marker works');
  });
});
