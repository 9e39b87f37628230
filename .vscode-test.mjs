// `npm run test:vscode`: the integration suites in a downloaded VS Code (Electron) through
// @vscode/test-cli, for machines that can download VS Code. Here, scripts/run-integration.mjs
// runs the same suites in code-server instead.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@vscode/test-cli';

const root = fileURLToPath(new URL('.', import.meta.url));
// The suites add and remove files in the workspace, so each run gets a copy of the fixture.
const workspace = mkdtempSync(join(tmpdir(), 'loop-ledger-vscode-'));
cpSync(join(root, 'test', 'fixtures', 'vscode-workspace'), workspace, { recursive: true });

export default defineConfig({
  label: 'integration',
  files: 'out/test/integration/**/*.test.js',
  version: 'stable',
  extensionDevelopmentPath: root,
  workspaceFolder: workspace,
  launchArgs: ['--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  mocha: {
    ui: 'bdd',
    color: false,
    timeout: 30_000,
    reporter: join(root, 'scripts', 'mocha-tier-reporter.cjs'),
    reporterOptions: { tier: 'integration' },
  },
});
