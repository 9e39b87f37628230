// The integration tests' seams, loaded by the extension only in extension test mode
// (src/extension/testing/loadTestHooks.ts). The extension hands this module its parts once it is
// wired (`observe`); the tests load the same file at run time (not their bundled copy) and read
// the seams and those parts through `observedExtension()`. None of this is in the production
// bundle, and `activate` returns nothing.
import type * as vscode from 'vscode';
import type { Prompter } from '../../src/extension/input/prompter';
import type { NotifiedEvent } from '../../src/extension/notifications/notifier';
import type { ExtensionInternals, TestHooks } from '../../src/extension/testing/loadTestHooks';

/** The seams a test drives (the test helpers' `testingApi()`). */
export interface TestingApi {
  readonly prompter: {
    /** Answers with `prompter` until the returned disposable is disposed. */
    use(prompter: Prompter): vscode.Disposable;
  };
  readonly trust: {
    /** Treats the workspace as untrusted until the returned disposable is disposed. */
    simulateUntrusted(): vscode.Disposable;
  };
  readonly mcp: {
    /** What the registered MCP server definition provider offers now. */
    definitions(): Promise<vscode.McpStdioServerDefinition[]>;
    /** What the provider gives VS Code to start `definition` (undefined: not started). */
    resolve(
      definition: vscode.McpStdioServerDefinition,
    ): Promise<vscode.McpStdioServerDefinition | undefined>;
  };
  readonly attention: {
    /** Every notification the attention notifier showed since activation, oldest first. */
    readonly notified: readonly NotifiedEvent[];
    /** The Sessions view's badge number after the notifier's latest pass (undefined before one). */
    readonly badge: number | undefined;
    /**
     * Clicks `label` on the next notification whose key `key` accepts, as a person would, until the
     * returned disposable is disposed; what the button runs is then run for real.
     */
    click(key: (key: string) => boolean, label: string): vscode.Disposable;
  };
}

/** The hooks the extension loaded, and its parts once `activate` has handed them over. */
let created: { testing: TestingApi; internals?: ExtensionInternals } | undefined;

/** A token never cancelled, for calling the MCP provider as VS Code would. */
const NEVER = {
  isCancellationRequested: false,
  onCancellationRequested: () => ({ dispose() {} }),
} as unknown as vscode.CancellationToken;

/** What the extension under test gave this module; undefined before it activated in test mode. */
export function observedExtension(): { testing: TestingApi; internals: ExtensionInternals } | undefined {
  return created?.internals ? { testing: created.testing, internals: created.internals } : undefined;
}

export function createTestHooks(): TestHooks {
  let scripted: Prompter | undefined;
  let untrusted = false;
  const notified: NotifiedEvent[] = [];
  let badge: number | undefined;
  const clicks: { key: (key: string) => boolean; label: string }[] = [];
  let mcpProvider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> | undefined;
  const testing: TestingApi = {
    prompter: {
      use(prompter) {
        scripted = prompter;
        return { dispose: () => void (scripted === prompter && (scripted = undefined)) };
      },
    },
    trust: {
      simulateUntrusted() {
        untrusted = true;
        return { dispose: () => void (untrusted = false) };
      },
    },
    mcp: {
      async definitions() {
        if (mcpProvider === undefined)
          throw new Error('the extension registered no MCP server definition provider');
        return (await mcpProvider.provideMcpServerDefinitions(NEVER)) ?? [];
      },
      async resolve(definition) {
        if (mcpProvider?.resolveMcpServerDefinition === undefined)
          throw new Error('the MCP server definition provider resolves nothing');
        return (await mcpProvider.resolveMcpServerDefinition(definition, NEVER)) ?? undefined;
      },
    },
    attention: {
      notified,
      get badge() {
        return badge;
      },
      click(key, label) {
        const click = { key, label };
        clicks.push(click);
        return {
          dispose: () => {
            const at = clicks.indexOf(click);
            if (at >= 0) clicks.splice(at, 1);
          },
        };
      },
    },
  };
  const state: { testing: TestingApi; internals?: ExtensionInternals } = { testing };
  created = state;
  return {
    observe: (internals) => void (state.internals = internals),
    mcpProvider: (provider) => void (mcpProvider = provider),
    attention: {
      notified: (event) => void notified.push(event),
      badge: (count) => void (badge = count),
      answer(event, shown) {
        const at = clicks.findIndex((c) => c.key(event.key));
        if (at < 0) return shown;
        const [click] = clicks.splice(at, 1);
        return Promise.resolve(click!.label);
      },
    },
    prompter(standard) {
      const current = () => scripted ?? standard;
      return {
        pickOne: (request) => current().pickOne(request),
        pickMany: (request) => current().pickMany(request),
        inputText: (request) => current().inputText(request),
        confirm: (request) => current().confirm(request),
      };
    },
    workspaceTrusted: (real) => () => real() && !untrusted,
  };
}
