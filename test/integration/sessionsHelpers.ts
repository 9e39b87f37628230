// Shared by the sessions and commands suites: the extension's API, and the fixture ledgers
// copied into (and later removed from) the integration workspace.
import * as assert from 'node:assert/strict';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LoopLedgerApi } from '../../src/extension/extension';
import { TEST_HOOKS_MODULE } from '../../src/extension/testing/loadTestHooks';
import type { TestingApi, observedExtension } from '../hooks/testHooks';

export const EXTENSION_ID = 'loop-ledger.loop-ledger';

/**
 * The extension's parts, activating it first. `activate` returns nothing: they come from the
 * test-hook module the extension loaded, read here as the same file at run time (this suite's
 * bundle has its own copy, which the extension never saw).
 */
export async function loopLedgerApi(): Promise<LoopLedgerApi & { testing: TestingApi }> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  await ext.activate();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const hooks = require(join(ext.extensionPath, TEST_HOOKS_MODULE)) as {
    observedExtension: typeof observedExtension;
  };
  const observed = hooks.observedExtension();
  assert.ok(observed, 'the extension was not started in test mode (no extensionTestsPath)');
  return { ...observed.internals, testing: observed.testing };
}

/**
 * The test-only seams (scripted answers, simulated distrust). The extension loads them only in
 * extension test mode, so a user's window never carries them.
 */
export async function testingApi(): Promise<TestingApi> {
  return (await loopLedgerApi()).testing;
}

export function extensionPath(): string {
  return vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
}

export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the integration tier opens a workspace folder');
  return folder.uri.fsPath;
}

const FIXTURE_PARTS = [
  ['.loop', 'ledgers'],
  ['.loop', 'contracts'],
  ['.claude', '.runtime', 'work-loop'],
] as const;

/** Copies test/fixtures/sessions-workspace's ledgers and contracts into the workspace. */
export function installSessionFixtures(root: string): void {
  const source = join(extensionPath(), 'test', 'fixtures', 'sessions-workspace');
  for (const parts of FIXTURE_PARTS)
    cpSync(join(source, ...parts), join(root, ...parts), { recursive: true });
}

/** Removes what installSessionFixtures copied, and ledgers tests created. */
export function removeSessionFixtures(root: string): void {
  const source = join(extensionPath(), 'test', 'fixtures', 'sessions-workspace');
  rmSync(join(root, '.loop', 'ledgers'), { recursive: true, force: true });
  rmSync(join(root, '.claude'), { recursive: true, force: true });
  for (const name of readdirSync(join(source, '.loop', 'contracts'))) {
    rmSync(join(root, '.loop', 'contracts', name), { force: true });
  }
}

/** Polls until `check` returns a value (not undefined/false) or the time is up. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false,
  timeoutMs = 3_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
