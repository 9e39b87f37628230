// Every message the overview or dashboard webview posts passes this gate before the host acts on
// it, as the critic-brief panel's do (brief/messageGate.ts): too large, malformed, early or
// replayed messages are refused with a reason, and an iteration or session the page names must be
// one the host knows. No vscode import: plain rules, tested as such.
import { FromOverview, MAX_OVERVIEW_MESSAGE_CHARS } from '../../shared/overview-protocol';

export type OverviewDecision = { accept: FromOverview } | { reject: string; requestId?: string };

/** What the gate asks the page it guards. */
export interface GatedPage {
  /** Whether iteration `n` is in the ledger shown (false on the dashboard). */
  hasIteration(n: number): boolean;
  /** Whether the session is one the page lists (false on an overview). */
  listsSession(root: string, session: string): boolean;
}

function size(raw: unknown): number | undefined {
  try {
    return JSON.stringify(raw)?.length ?? 0;
  } catch {
    return undefined;
  }
}

function requestIdOf(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const id = (raw as { requestId?: unknown }).requestId;
  return typeof id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : undefined;
}

export class OverviewGate {
  private ready = false;
  private readonly seen = new Set<string>();

  constructor(private readonly page: GatedPage) {}

  check(raw: unknown): OverviewDecision {
    const chars = size(raw);
    if (chars === undefined) return { reject: 'malformed: not a JSON value' };
    if (chars > MAX_OVERVIEW_MESSAGE_CHARS)
      return { reject: `oversized: ${chars} characters, over the ${MAX_OVERVIEW_MESSAGE_CHARS} limit` };
    const parsed = FromOverview.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      return {
        reject: `malformed: ${where}${issue?.message ?? 'not an overview message'}`,
        requestId: requestIdOf(raw),
      };
    }
    const message = parsed.data;
    if (message.type === 'ready') {
      this.ready = true;
      return { accept: message };
    }
    const { requestId } = message;
    if (!this.ready) return { reject: `out of order: ${message.type} before the ready handshake`, requestId };
    if (this.seen.has(requestId))
      return { reject: `out of order: request ${requestId} was already handled`, requestId };
    this.seen.add(requestId);
    switch (message.type) {
      case 'showIteration':
      case 'openBrief':
        if (!this.page.hasIteration(message.n))
          return { reject: `unknown iteration: ${message.n} is not in this ledger`, requestId };
        return { accept: message };
      case 'openOverview':
        if (!this.page.listsSession(message.root, message.session))
          return { reject: `unknown session: ${message.session} is not listed here`, requestId };
        return { accept: message };
    }
  }
}
