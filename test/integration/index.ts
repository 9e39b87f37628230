// Entry point the extension host loads through `extensionTestsPath` (the standard layout):
// it runs every bundled suite next to this file and settles when mocha finishes.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  // Bundled to out/test/integration/index.js, so the repository root is three levels up.
  const repoRoot = resolve(__dirname, '..', '..', '..');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const tierReporter = require(join(repoRoot, 'scripts', 'mocha-tier-reporter.cjs'));
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 30_000,
    reporter: tierReporter,
    reporterOptions: { tier: 'integration' },
    // A stray `.only` must fail CI rather than run one suite and report green.
    forbidOnly: Boolean(process.env.CI),
    // LOOP_LEDGER_INTEGRATION_GREP=… runs only the matching tests while working on one suite (never under CI).
    grep: (!process.env.CI && process.env.LOOP_LEDGER_INTEGRATION_GREP) || undefined,
  });
  for (const name of readdirSync(__dirname).sort()) {
    if (name.endsWith('.test.js')) mocha.addFile(join(__dirname, name));
  }
  return new Promise((resolvePromise, reject) => {
    mocha.run((failures) =>
      failures > 0 ? reject(new Error(`${failures} integration test(s) failed`)) : resolvePromise(),
    );
  });
}
