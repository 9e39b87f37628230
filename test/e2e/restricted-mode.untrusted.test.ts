// A real untrusted window: scripts/run-e2e.mjs runs *.untrusted.test.js against a code-server with
// workspace trust ON and no trust prompt, so this folder opens in Restricted Mode — no simulated
// switch. Loop Ledger must still show its tree and read a session, refuse every write with the
// reason, write nothing, and run no git (the folder is a git repository whose config would
// record any git command that touched it: core.fsmonitor names a script that leaves a marker).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerQuickInput, startPaletteCommand } from './brief-quick-input';
import { Workbench } from './workbench';

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

/** Makes the workspace a git repository whose config marks any git command run in it. */
function gitRepositoryThatTellsOnGit(workspace: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
  git('init', '--quiet');
  git('-c', 'user.email=e2e@example.invalid', '-c', 'user.name=e2e', 'add', '-A');
  git('-c', 'user.email=e2e@example.invalid', '-c', 'user.name=e2e', 'commit', '--quiet', '-m', 'fixture');
  const hook = join(workspace, '.git', 'tell-on-git.sh');
  writeFileSync(hook, `#!/bin/sh\necho "$@" >> "${join(workspace, '.git', 'GIT-RAN')}"\n`);
  chmodSync(hook, 0o755);
  git('config', 'core.fsmonitor', hook);
  // A change in the working tree, so a brief would have something to assemble.
  writeFileSync(join(workspace, 'NOTES.md'), 'a change\n');
}

/** Each write command from the palette, and the start of its own refusal. */
const WRITE_COMMANDS: [string, RegExp][] = [
  ['Loop Ledger: Open Loop', /Open Loop writes to the ledger, and this workspace is not trusted/],
  [
    'Loop Ledger: Record Iteration',
    /Record Iteration writes to the ledger, and this workspace is not trusted/,
  ],
  ['Loop Ledger: Close Session', /Close writes to the ledger, and this workspace is not trusted/],
  ['Loop Ledger: Resume', /Resume writes to the ledger, and this workspace is not trusted/],
  [
    'Loop Ledger: Assemble Critic Brief',
    /assembling a brief records it in the ledger, and this workspace is not trusted/,
  ],
];

describe('Loop Ledger in a really untrusted window (Restricted Mode)', function () {
  let workbench: Workbench;
  let ledgersBefore: Record<string, string>;

  before(async function () {
    assert.equal(process.env.LOOP_LEDGER_WORKSPACE_TRUST, 'on', 'run through scripts/run-e2e.mjs');
    workbench = await Workbench.open({ fixture: 'sessions-workspace', prepare: gitRepositoryThatTellsOnGit });
    ledgersBefore = snapshot(join(workbench.workspace, '.loop'));
  });

  after(async function () {
    await workbench?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await workbench?.screenshot(`failed-${this.currentTest.title}`);
  });

  it('is in Restricted Mode: VS Code itself does not trust the folder', async function () {
    await workbench.page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor();
  });

  it('still lists the sessions in the tree', async function () {
    await workbench.openViewContainer('Loop Ledger');
    const sessions = workbench.pane('Sessions');
    await sessions.locator('.monaco-list-row', { hasText: 'alpha' }).first().waitFor();
    await sessions.locator('.monaco-list-row', { hasText: 'beta' }).first().waitFor();
    await workbench.screenshot('untrusted-01-tree');
  });

  it('still reads a session with Show Status', async function () {
    // Show Status asks for the session in the same quick input the palette used.
    await startPaletteCommand(workbench.page, 'Loop Ledger: Show Status');
    await answerQuickInput(workbench.page, 'Show Status', { pick: 'alpha' });
    const texts = await workbench.readNotifications(/alpha: /);
    assert.ok(
      texts.some((t) => /alpha: .*epoch/.test(t)),
      texts.join('\n'),
    );
    await workbench.screenshot('untrusted-02-status');
    await workbench.hideNotifications();
  });

  for (const [title, refusal] of WRITE_COMMANDS) {
    it(`refuses "${title}" with the reason, before asking anything`, async function () {
      await workbench.runCommand(title);
      const texts = await workbench.readNotifications(refusal);
      const shown = texts.find((t) => refusal.test(t))!;
      assert.match(shown, /read-only here/);
      await workbench.screenshot(`untrusted-refused-${title.replace('Loop Ledger: ', '')}`);
      await workbench.hideNotifications();
    });
  }

  it('does not offer New Contract in the palette', async function () {
    const palette = workbench.page.locator('.quick-input-widget');
    await workbench.page.keyboard.press('F1');
    await palette.waitFor({ state: 'visible' });
    await palette.locator('input').fill('>Loop Ledger: ');
    await palette.locator('.monaco-list-row', { hasText: 'Show Status' }).first().waitFor();
    assert.equal(await palette.locator('.monaco-list-row', { hasText: 'New Contract' }).count(), 0);
    await workbench.page.keyboard.press('Escape');
  });

  it('wrote nothing and ran no git command in the folder', async function () {
    assert.deepEqual(snapshot(join(workbench.workspace, '.loop')), ledgersBefore);
    assert.equal(existsSync(join(workbench.workspace, '.loop', 'briefs')), false);
    assert.equal(
      existsSync(join(workbench.workspace, '.git', 'GIT-RAN')),
      false,
      'a git command ran in the untrusted folder',
    );
    // The detector works: a git command here does leave the marker.
    execFileSync('git', ['status', '--short'], { cwd: workbench.workspace, stdio: 'ignore' });
    assert.equal(
      existsSync(join(workbench.workspace, '.git', 'GIT-RAN')),
      true,
      'the fsmonitor marker works',
    );
  });
});
