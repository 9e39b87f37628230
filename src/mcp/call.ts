// A tools/call, whoever makes it (the MCP server, or VS Code's language-model tools): the
// arguments parsed with the tool's zod schema (a malformed one is exit 2 naming the field), then
// the handler; a path outside the root is exit 2, a system failure 74, a bug 70 — never a throw.
import type { z } from 'zod';
import { internalErrorMessage, isSystemError, systemFailureMessage } from '../app/system-error';
import { OutsideRoot } from './confine';
import type { ServerContext } from './context';
import type { CallOptions, Tool, ToolAnswer } from './tool';

/** A zod failure in the CLI's manner: one line per problem, naming the field. */
function argumentFindings(error: z.ZodError): string[] {
  return error.issues.slice(0, 20).map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
    return `${field}: ${issue.message}`;
  });
}

export async function callTool(
  tool: Tool,
  args: unknown,
  ctx: ServerContext,
  call: CallOptions = {},
): Promise<ToolAnswer> {
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) return { ok: false, exitCode: 2, findings: argumentFindings(parsed.error) };
  try {
    return await tool.handle(parsed.data, ctx, call);
  } catch (error) {
    if (error instanceof OutsideRoot) return { ok: false, exitCode: 2, findings: [error.message] };
    if (isSystemError(error)) return { ok: false, exitCode: 74, findings: [systemFailureMessage(error)] };
    process.stderr.write(`loop-ledger mcp: ${tool.name}: ${String((error as Error)?.stack ?? error)}\n`);
    return { ok: false, exitCode: 70, findings: [internalErrorMessage(error)] };
  }
}
