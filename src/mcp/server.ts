// The MCP server: tools/list and tools/call over the tool table, resources over the ledger,
// brief and contract files. Arguments are parsed with each tool's zod schema here (not by the SDK)
// so that a malformed argument is answered as any refusal is: isError, the field named, exit 2.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type Tool as ToolDefinition,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { BriefStore } from './brief-store';
import { callTool } from './call';
import { OutsideRoot } from './confine';
import type { ServerContext } from './context';
import {
  fileOf,
  ledgerSession,
  listResources,
  readResource,
  StoreResourceError,
  TEMPLATES,
  UnknownResource,
} from './resources';
import type { ServedStore } from './store-context';
import type { Tool, ToolAnswer } from './tool';
import { TOOLS } from './tools';
import { FileWatch } from './watch';

const VERSION = process.env.LOOP_LEDGER_VERSION ?? '0.1.0';

/** A zod schema as the JSON Schema a client reads (no $schema key: every definition pays for it). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): ToolDefinition['inputSchema'] {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return prune(rest) as ToolDefinition['inputSchema'];
}

/**
 * Drops what zod writes that tells a client nothing: the safe-integer bounds of every integer and
 * `propertyNames: {type: string}` (JSON keys are strings) and an open object's `additionalProperties: {}`. Each definition is paid for in tokens
 * in every conversation, so every key counts.
 */
function prune(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(prune);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if ((key === 'maximum' || key === 'minimum') && Math.abs(inner as number) === Number.MAX_SAFE_INTEGER)
      continue;
    if (key === 'propertyNames') continue;
    // `{}` allows anything, as leaving the key out does.
    if (key === 'additionalProperties' && isEmptyObject(inner)) continue;
    out[key] = prune(inner);
  }
  return out;
}

/** tools/list's answer, the same for every client: built once. */
export function toolDefinitions(tools: Tool[] = TOOLS): ToolDefinition[] {
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input'),
    outputSchema: jsonSchema(tool.output, 'output') as ToolDefinition['outputSchema'],
    annotations: tool.annotations,
  }));
}

function toResult(answer: ToolAnswer): CallToolResult {
  if (answer.ok)
    return {
      content: [{ type: 'text', text: answer.text ?? JSON.stringify(answer.data) }],
      structuredContent: answer.data,
    };
  return {
    isError: true,
    content: [{ type: 'text', text: `refused (exit ${answer.exitCode}): ${answer.findings.join('\n')}` }],
    _meta: { 'loop-ledger/exit_code': answer.exitCode, 'loop-ledger/findings': answer.findings },
  };
}

function isEmptyObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && Object.keys(value).length === 0;
}

export interface LedgerServer {
  server: Server;
  /** Stops watching files (the server itself closes with its transport). */
  dispose(): void;
  /**
   * Resolves once no tool call is in flight. On close the SDK aborts every call; a run then
   * still kills its agents, writes cancelled.json and records its pause, and the process must
   * not exit before it has.
   */
  settled(): Promise<void>;
}

export function createServer(root: string, tools: Tool[] = TOOLS, store?: ServedStore): LedgerServer {
  const ctx: ServerContext = {
    root,
    briefs: new BriefStore(),
    now: () => new Date(),
    write: async (op) => op({}),
    store,
  };
  const server = new Server(
    { name: 'loop-ledger', version: VERSION },
    {
      capabilities: { tools: {}, resources: { subscribe: true } },
      instructions:
        'Loop Ledger: bounded, auditable agent loops. open_loop, then one record_iteration per step; session_status to check.',
    },
  );
  const definitions = toolDefinitions(tools);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const watch = new FileWatch((uri) => {
    void server.sendResourceUpdated({ uri }).catch(() => undefined);
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: definitions }));
  const inFlight = new Set<Promise<unknown>>();
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown tool ${JSON.stringify(request.params.name.slice(0, 80))}`,
      );
    const answer = callTool(tool, request.params.arguments, ctx, { signal: extra.signal });
    inFlight.add(answer);
    try {
      return toResult(await answer);
    } finally {
      inFlight.delete(answer);
    }
  });
  const resourceError = (error: unknown): never => {
    if (error instanceof UnknownResource || error instanceof OutsideRoot)
      throw new McpError(ErrorCode.InvalidParams, error.message);
    if (error instanceof StoreResourceError) throw new McpError(ErrorCode.InternalError, error.message);
    throw error;
  };
  // A ledger in a store has no file to watch: its subscribers hear of another process's write
  // from the store's LISTEN follower (a wake-up; the client reads the resource again).
  const storeSubscribed = new Set<string>();
  let following = false;
  const followStore = (): void => {
    if (!store || following) return;
    following = true;
    store.follow((sessions) => {
      for (const session of sessions) {
        const uri = `loop-ledger://ledger/${session}`;
        if (storeSubscribed.has(uri)) void server.sendResourceUpdated({ uri }).catch(() => undefined);
      }
    });
  };
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    try {
      return { resources: await listResources(ctx) };
    } catch (error) {
      return resourceError(error);
    }
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      return { contents: [await readResource(ctx, request.params.uri)] };
    } catch (error) {
      return resourceError(error);
    }
  });
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    try {
      const { uri } = request.params;
      const file = fileOf(ctx, uri);
      if (file !== null) watch.add(uri, file);
      else if (store && ledgerSession(uri) !== null) {
        followStore();
        storeSubscribed.add(uri);
      }
      return {};
    } catch (error) {
      return resourceError(error);
    }
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    watch.remove(request.params.uri);
    storeSubscribed.delete(request.params.uri);
    return {};
  });
  return {
    server,
    dispose: () => watch.closeAll(),
    settled: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
