// The integration tests' seams (a scripted Prompter, a simulated untrusted workspace) live in a
// test-only module, out/test/hooks/testHooks.js, which is neither bundled into dist/ nor shipped
// in the .vsix. It is loaded only when VS Code runs the extension in test mode (an
// extensionTestsPath is given), so a user's window never carries them. `activate` returns
// nothing: the tests observe the extension's parts through this module, which the extension
// hands them to (`observe`) and the tests read back from the same loaded module.
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { Prompter } from '../input';
import type { AttentionObserver } from '../notifications/notifier';
import type { RunsApi } from '../run/register';
import type { SessionsApi } from '../sessions/feature';
import type { WorkOrdersTreeProvider } from '../workorders/treeProvider';

/** The extension's parts the integration tests read (handed to the hooks, never returned from `activate`). */
export interface ExtensionInternals extends SessionsApi, RunsApi {
  /** Milliseconds `activate` itself took, measured by the extension. */
  readonly activationMs: number;
  /** The Work Orders view's provider (tests read its tasks). */
  readonly workOrders: WorkOrdersTreeProvider;
}

/** What the test-only module gives the extension. */
export interface TestHooks {
  /** Wraps the real Prompter in one the tests can point at scripted answers. */
  prompter(standard: Prompter): Prompter;
  /** VS Code's trust answer, unless a test is simulating an untrusted workspace. */
  workspaceTrusted(real: () => boolean): () => boolean;
  /** Told of each notification the attention notifier shows, and of the badge's number. */
  readonly attention?: AttentionObserver;
  /** Given the MCP server definition provider as registered, so a test can ask it what it offers. */
  readonly mcpProvider?: (
    provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>,
  ) => void;
  /** Given the extension's parts once `activate` has wired them. */
  observe(internals: ExtensionInternals): void;
}

export const TEST_HOOKS_MODULE = 'out/test/hooks/testHooks.js';

export function loadTestHooks(context: vscode.ExtensionContext): TestHooks | undefined {
  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  const path = context.asAbsolutePath(TEST_HOOKS_MODULE);
  if (!existsSync(path)) return undefined;
  // A runtime require of a file outside the bundle: esbuild leaves it alone.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const module = require(path) as { createTestHooks(): TestHooks };
  return module.createTestHooks();
}
