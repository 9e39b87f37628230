// The steps every message a webview posts takes before its page's own rules, the same for the
// critic-brief panel and the overview pages: a webview is a browser page, so a message may be
// cyclic, huge, malformed, early (before the ready handshake) or a replay of one already handled,
// and each of those is refused with a reason. No vscode import: plain rules, tested through the
// gates that use it.
import type { z } from 'zod';
import { requestIdOf } from '../shared/request-id';

export type Refusal = { reject: string; requestId?: string };

/** A message's length as JSON; undefined when it is cyclic or otherwise not JSON (malformed). */
function size(raw: unknown): number | undefined {
  try {
    return JSON.stringify(raw)?.length ?? 0;
  } catch {
    return undefined;
  }
}

export class WebviewAdmission<M extends { type: string }> {
  private ready = false;
  private readonly seen = new Set<string>();

  /** `schema` parses a message; `what` names one in a refusal ("a panel message"). */
  constructor(
    private readonly schema: z.ZodType<M>,
    private readonly maxChars: number,
    private readonly what: string,
  ) {}

  /** `ready` for the handshake, `request` for a request seen the first time after it, else why not. */
  admit(
    raw: unknown,
  ): { ready: M } | { request: Exclude<M, { type: 'ready' }> & { requestId: string } } | Refusal {
    const chars = size(raw);
    if (chars === undefined) return { reject: 'malformed: not a JSON value' };
    if (chars > this.maxChars)
      return { reject: `oversized: ${chars} characters, over the ${this.maxChars} limit` };
    const parsed = this.schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      return {
        reject: `malformed: ${where}${issue?.message ?? `not ${this.what}`}`,
        requestId: requestIdOf(raw),
      };
    }
    const message = parsed.data;
    if (message.type === 'ready') {
      this.ready = true;
      return { ready: message };
    }
    const request = message as Exclude<M, { type: 'ready' }> & { requestId: string };
    const { requestId } = request;
    if (!this.ready) return { reject: `out of order: ${message.type} before the ready handshake`, requestId };
    if (this.seen.has(requestId))
      return { reject: `out of order: request ${requestId} was already handled`, requestId };
    this.seen.add(requestId);
    return { request };
  }
}
