import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, Workbench } from './workbench';

// Repeat Until Settled from the palette in the real workbench: the spec typed into the quick
// input, a stall pause answered in the quick pick (screenshots of both), the convergence summary
// preview, and the repeat's state in the Sessions tree; the ledger checked on disk.
describe('Repeat Until Settled from the palette', function () {
  let workbench: Workbench;
  let outside: string;
  const STUCK = 'Recommend extracting a shared validator; verification failed';

  before(async function () {
    workbench = await Workbench.open();
    outside = mkdtempSync(join(tmpdir(), 'loop-ledger-e2e-repeat-'));
  });

  after(async function () {
    await workbench?.close();
    if (outside) rmSync(outside, { recursive: true, force: true });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await workbench?.screenshot(`failed-${this.currentTest.title}`);
  });

  const page = () => workbench.page;
  const quickInput = () => page().locator('.quick-input-widget');
  const row = (text: string | RegExp) =>
    workbench.pane('Sessions').locator('.monaco-list-row', { hasText: text }).first();

  it('runs to a stall pause, takes "skip" in the quick pick, settles, and shows the summary', async function () {
    const root = workbench.workspace;
    const contract = join(outside, 'contract.json');
    writeFileSync(
      contract,
      JSON.stringify({
        purpose: 'Tidy the greeting module until nothing is left',
        owner: 'e2e',
        starting_state: 'untidy',
        inputs: ['src'],
        expected_outputs: ['tidy code'],
        success_criteria: ['no recommendations'],
        failure_criteria: ['stalls'],
        dependencies: ['node'],
        iteration_limit: 20,
        timeout_behaviour: 'pause',
        escalation_path: 'ask the owner',
        quality_rubric: [
          {
            dimension: 'left',
            evidence_command: 'echo 0',
            baseline: 5,
            target: 0,
            weight: 1,
            failure_threshold: 10,
            direction: 'lower-is-better',
            hard_gate: false,
          },
        ],
      }),
    );
    const cli = join(repoRoot, 'dist', 'cli.js');
    const opened = spawnSync(process.execPath, [
      cli,
      'open',
      '--root',
      root,
      '--session',
      'tidy',
      '--contract',
      contract,
    ]);
    assert.equal(opened.status, 0, String(opened.stderr));
    const plan = join(outside, 'plan.json');
    writeFileSync(
      plan,
      JSON.stringify([
        { summary: 'Applied 2 recommendations', files: { 'src/greet.js': '// tidied\n' } },
        { summary: STUCK },
        { summary: STUCK },
        { summary: STUCK },
        { summary: 'Analysis complete. No recommendations.' },
      ]),
    );
    const step = join(repoRoot, 'test', 'fixtures', 'repeat', 'step.mjs');
    const spec = `"${process.execPath}" "${step}" "${plan}" max=10`;

    await workbench.openViewContainer('Loop Ledger');
    await row('tidy').waitFor();
    await page().keyboard.press('F1');
    await quickInput().locator('input').fill('>Loop Ledger: Repeat Until Settled');
    await quickInput().locator('.monaco-list-row', { hasText: 'Repeat Until Settled' }).first().waitFor();
    await page().keyboard.press('Enter');
    await quickInput().locator('.monaco-list-row', { hasText: 'tidy' }).first().waitFor();
    await page().keyboard.press('Enter'); // the session
    await quickInput().locator(':text("The step to repeat")').first().waitFor();
    await quickInput().locator('input.input').fill(spec);
    await workbench.screenshot('repeat-01-spec');
    await page().keyboard.press('Enter');

    // The pause: a quick pick titled with the recommendation, offering the first-pause options.
    await quickInput().locator(':text("stalled ×3")').first().waitFor({ timeout: 60_000 });
    const options = await quickInput().locator('.monaco-list-row .label-name').allInnerTexts();
    assert.deepEqual(options.slice(0, 4), ['retry', 'skip', 'abandon', 'change-scope']);
    await workbench.screenshot('repeat-02-stall-pause');
    await quickInput().locator('input.input').fill('skip');
    await page().keyboard.press('Enter');

    await page().locator('.tab', { hasText: 'tidy.md' }).first().waitFor({ timeout: 60_000 });
    await row(/repeat: settled/).waitFor({ timeout: 10_000 });
    // The preview is a webview: wait until it has rendered the summary before the screenshot.
    await page()
      .frameLocator('iframe.webview.ready')
      .frameLocator('iframe#active-frame')
      .locator('h2', { hasText: 'Convergence summary' })
      .waitFor({ timeout: 30_000 });
    await workbench.screenshot('repeat-03-settled');
    const ledger = JSON.parse(readFileSync(join(root, '.loop', 'ledgers', 'tidy.json'), 'utf8'));
    assert.equal(ledger.final_outcome, 'complete');
    assert.equal(ledger.repeat.resolutions['4'], 'skipped');
    assert.deepEqual(
      ledger.iterations.map((r: { repeat: { classification: string } }) => r.repeat.classification),
      ['continuing', 'stalled', 'stalled', 'stalled', 'settled'],
    );
  });
});
