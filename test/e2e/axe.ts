// axe-core over one webview document, for the e2e tests: every rule it runs by default, colour
// contrast included, so a theme whose text fades into its background fails the test.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { repoRoot } from './workbench';

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** The first webview document that has an element matching `selector` (evaluate needs a Frame). */
export async function frameWith(page: Page, selector: string, timeout = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      const found = await frame
        .locator(selector)
        .count()
        .catch(() => 0);
      if (found > 0) return frame;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no webview document has ${selector}`);
}

export async function axeViolations(frame: Frame): Promise<Violation[]> {
  await frame.evaluate(readFileSync(join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  return frame.evaluate(async () => {
    const runner = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{
            violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await runner.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  });
}

/** Zero violations, and each one found printed with the elements it names. */
export async function assertAxeClean(frame: Frame): Promise<void> {
  const violations = await axeViolations(frame);
  for (const v of violations)
    console.log(`      axe: ${v.impact} ${v.id} — ${v.help}: ${v.targets.slice(0, 3).join(' ')}`);
  assert.deepEqual(
    violations.map((v) => v.id),
    [],
  );
}
