// Three of the loop's actions as VS Code language-model tools, for agent mode without the MCP
// server: session status, record an iteration (confirmed first, showing exactly what will be
// written), assemble a brief. Each runs the MCP tool of the same job (src/mcp/tools), so
// arguments, refusals and exit codes are the CLI's; the Sessions tree shows a write as any other.
// On a store window (loopLedger.store) they read and write the store, as the window does.
import * as vscode from 'vscode';
import { BriefStore } from '../../mcp/brief-store';
import { callTool } from '../../mcp/call';
import type { ServerContext } from '../../mcp/context';
import type { Tool } from '../../mcp/tool';
import { TOOLS } from '../../mcp/tools';
import type { StoreWrites } from '../sessions/sessionSource';
import { TrustGate } from '../workspace/trust';
import { writeWithoutBlocking } from '../workspace/ledgerWrites';

/** The contributed name (package.json languageModelTools) → the MCP tool it runs, and whether it writes. */
export const LM_TOOLS: Record<string, { tool: string; writes: boolean }> = {
  loopLedger_sessionStatus: { tool: 'session_status', writes: false },
  loopLedger_recordIteration: { tool: 'record_iteration', writes: true },
  loopLedger_assembleBrief: { tool: 'assemble_brief', writes: true },
};

type Input = Record<string, unknown> & { folder?: string };

function folderFor(input: Input): vscode.WorkspaceFolder | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (input.folder === undefined) return folders[0];
  return folders.find((f) => f.name === input.folder);
}

/** What the record tool will write, field by field, as the confirmation shows it. */
export function confirmationText(input: Input): string {
  const { folder: _folder, ...fields } = input;
  const lines = Object.entries(fields).map(([key, value]) => `- **${key}**: \`${JSON.stringify(value)}\``);
  return lines.join('\n');
}

class LedgerTool implements vscode.LanguageModelTool<Input> {
  constructor(
    private readonly name: string,
    private readonly tool: Tool,
    private readonly writes: boolean,
    private readonly trust: TrustGate,
    private readonly storeWrites: (root: string) => StoreWrites | undefined,
    private readonly briefs: BriefStore,
    private readonly onWritten: (root: string, session: string) => Promise<unknown>,
  ) {}

  prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<Input>,
  ): vscode.PreparedToolInvocation {
    const session = String(options.input.session ?? '');
    if (!this.writes) return { invocationMessage: vscode.l10n.t('Reading the status of {0}', session) };
    const message = new vscode.MarkdownString(
      vscode.l10n.t(
        'Loop Ledger will write this to the ledger of {0}:\n\n{1}',
        session,
        confirmationText(options.input),
      ),
    );
    return {
      invocationMessage: vscode.l10n.t('Writing to {0}', session),
      confirmationMessages: { title: this.tool.title, message },
    };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<Input>,
  ): Promise<vscode.LanguageModelToolResult> {
    const text = (line: string) =>
      new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(line)]);
    if (this.writes && !this.trust.isTrusted) return text(TrustGate.refusal(this.tool.title));
    const folder = folderFor(options.input);
    if (!folder) return text(vscode.l10n.t('refused (exit 2): folder: no such workspace folder'));
    const { folder: _folder, ...args } = options.input;
    const ctx: ServerContext = {
      root: folder.uri.fsPath,
      briefs: this.briefs,
      now: () => new Date(),
      write: (op) => writeWithoutBlocking(op),
      // Each call a connection and a request id of its own (StoreLink.writes).
      store: this.storeWrites(folder.uri.fsPath),
    };
    const answer = await callTool(this.tool, args, ctx);
    // The extension's own write: show it now rather than wait for the file watcher, which a
    // remote host or a busy machine may deliver late (the other write commands do the same).
    if (this.writes && answer.ok && typeof args.session === 'string')
      await this.onWritten(folder.uri.fsPath, args.session);
    return text(
      answer.ok
        ? JSON.stringify(answer.data)
        : `refused (exit ${answer.exitCode}): ${answer.findings.join('\n')}`,
    );
  }
}

export function registerLmTools(
  context: vscode.ExtensionContext,
  trust: TrustGate,
  storeWrites: (root: string) => StoreWrites | undefined,
  onWritten: (root: string, session: string) => Promise<unknown>,
): void {
  const briefs = new BriefStore();
  for (const [name, { tool, writes }] of Object.entries(LM_TOOLS)) {
    const found = TOOLS.find((t) => t.name === tool);
    if (!found) throw new Error(`no MCP tool ${tool}`);
    context.subscriptions.push(
      vscode.lm.registerTool(
        name,
        new LedgerTool(name, found, writes, trust, storeWrites, briefs, onWritten),
      ),
    );
  }
}
