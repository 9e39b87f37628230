// Answers the critic-brief command's quick-input steps the way a person does: type, then Enter.
import type { Page } from 'playwright-core';

const TIMEOUT = 30_000;

/** Waits for the quick input titled `title`, picks the row labelled `label` (or types text), presses Enter. */
export async function answerQuickInput(
  page: Page,
  title: string,
  answer: { pick: string } | { text: string },
) {
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-title', { hasText: title }).waitFor({ timeout: TIMEOUT });
  const input = widget.locator('input.input');
  if ('pick' in answer) {
    await input.fill(answer.pick);
    await widget.locator('.monaco-list-row', { hasText: answer.pick }).first().waitFor({ timeout: TIMEOUT });
  } else {
    await input.fill(answer.text);
  }
  await page.keyboard.press('Enter');
}

/**
 * Starts a palette command whose first step is another quick input. Workbench.runCommand waits
 * for the palette to close, which such a command never lets it do: the next question opens in the
 * same widget at once, so this one returns right after Enter.
 */
export async function startPaletteCommand(page: Page, title: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  for (let attempt = 1; attempt <= 5; attempt++) {
    await page.keyboard.press('F1');
    await widget.waitFor({ state: 'visible', timeout: TIMEOUT });
    await widget.locator('input.input').fill(`>${title}`);
    try {
      const row = widget.locator('.monaco-list-row', { hasText: title }).first();
      await row.waitFor({ timeout: 8_000 });
      await page.keyboard.press('Enter');
      return;
    } catch {
      await page.keyboard.press('Escape'); // the palette is still filling in; try again
      await page.waitForTimeout(1_000);
    }
  }
  throw new Error(`command not found in the palette: ${title}`);
}

/** Runs the whole "Assemble Critic Brief" flow for the working tree and a verification file. */
export async function assembleFromWorkingTree(page: Page, session: string, verificationFile: string) {
  await startPaletteCommand(page, 'Loop Ledger: Assemble Critic Brief');
  await answerQuickInput(page, 'Assemble Critic Brief: session', { pick: session });
  await answerQuickInput(page, 'Assemble Critic Brief: change', { pick: 'Working tree vs HEAD' });
  await answerQuickInput(page, 'Assemble Critic Brief: verification output', { pick: 'From a file' });
  await answerQuickInput(page, 'Assemble Critic Brief: verification output file', { text: verificationFile });
}
