// One MCP tool: its listing (title, one-line description, input and output schemas, annotations)
// and its handler. The zod schemas are the single source: tools/list shows their JSON Schema and
// tools/call parses the arguments with them, so a malformed argument is refused by field name.
import { z } from 'zod';
import type { Outcome } from '../app/outcome';
import type { Finding } from '../engine/types';
import type { ServerContext } from './context';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a handler returns: the structured result, or a refusal with the CLI's exit code. */
export type ToolAnswer =
  | { ok: true; data: Record<string, unknown>; text?: string }
  | { ok: false; exitCode: number; findings: string[] };

/** One call's own state: its abort signal (the client cancelled, or went away). */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface Tool<In extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: In;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  handle(args: z.infer<In>, ctx: ServerContext, call?: CallOptions): ToolAnswer | Promise<ToolAnswer>;
}

export function defineTool<In extends z.ZodObject>(tool: Tool<In>): Tool {
  return tool as unknown as Tool;
}

export const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

export function write(destructive: boolean, idempotent: boolean): ToolAnnotations {
  return {
    readOnlyHint: false,
    destructiveHint: destructive,
    idempotentHint: idempotent,
    openWorldHint: false,
  };
}

export function refused(exitCode: number, findings: (string | Finding)[]): ToolAnswer {
  return { ok: false, exitCode, findings: findings.map((f) => (typeof f === 'string' ? f : f.message)) };
}

/**
 * An operation's outcome as a tool answer. Exit 0 is success; `status` (4, no iterations) and
 * `score` (6, a hard gate breached) report a payload with their non-zero code, so a payload
 * with `payloadCodes` listing the code is an answer too, the code carried as `exit_code`.
 */
export function fromOutcome<P>(
  outcome: Outcome<P>,
  shape: (payload: P) => Record<string, unknown>,
  payloadCodes: number[] = [],
): ToolAnswer {
  const codeWithPayload = outcome.exitCode === 0 || payloadCodes.includes(outcome.exitCode);
  if (outcome.payload !== undefined && codeWithPayload) {
    const data = shape(outcome.payload);
    return { ok: true, data: payloadCodes.length > 0 ? { exit_code: outcome.exitCode, ...data } : data };
  }
  return refused(outcome.exitCode, outcome.findings);
}
