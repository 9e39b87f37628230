// The integration tests' seams (a scripted Prompter, a simulated untrusted workspace) live in a
// test-only module, out/test/hooks/testHooks.js, which is neither bundled into dist/ nor shipped
// in the .vsix. It is loaded only when VS Code runs the extension in test mode (an
// extensionTestsPath is given), so a user's window never carries them and `activate`'s public
// API has none of them.
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { Prompter } from '../input';
import type { AttentionObserver } from '../notifications/notifier';

/** What the test-only module gives the extension, and what the tests reach through `api.testing`. */
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
  /** The seams themselves, exposed to the tests as `api.testing`. */
  readonly api: unknown;
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
