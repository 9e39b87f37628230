// Every message the webview posts passes this gate before the host acts on it. A webview is a
// browser page: its messages may be malformed, huge, replayed or early, and none of those may
// record anything. The gate answers "accept" with the parsed message, or "reject" with a reason
// the host logs. No vscode import: the rules are plain and tested as such.
import { FromWebview, MAX_INCOMING_MESSAGE_CHARS } from '../../shared/protocol';

export type GateDecision = { accept: FromWebview } | { reject: string; requestId?: string };

/** What the gate needs to know about the panel it guards. */
export interface GatedPanel {
  readonly briefId: string;
  /** Paths the diff names; "open in diff editor" is refused for any other path. */
  readonly diffPaths: ReadonlySet<string>;
}

function size(raw: unknown): number | undefined {
  try {
    return JSON.stringify(raw)?.length ?? 0;
  } catch {
    return undefined; // cyclic or otherwise not JSON: refused as malformed
  }
}

function requestIdOf(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const id = (raw as { requestId?: unknown }).requestId;
  return typeof id === 'string' && id.length <= 64 ? id : undefined;
}

export class MessageGate {
  private ready = false;
  private spent = false;
  private verdictInFlight = false;
  private readonly seen = new Set<string>();

  constructor(private readonly panel: GatedPanel) {}

  check(raw: unknown): GateDecision {
    const chars = size(raw);
    if (chars === undefined) return { reject: 'malformed: not a JSON value' };
    if (chars > MAX_INCOMING_MESSAGE_CHARS)
      return { reject: `oversized: ${chars} characters, over the ${MAX_INCOMING_MESSAGE_CHARS} limit` };
    const parsed = FromWebview.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      return {
        reject: `malformed: ${where}${issue?.message ?? 'not a panel message'}`,
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
      case 'openDiff':
        if (!this.panel.diffPaths.has(message.path))
          return { reject: `unknown path: ${message.path} is not in this brief's diff`, requestId };
        return { accept: message };
      case 'exportPacket':
        if (message.briefId !== this.panel.briefId)
          return { reject: `stale: brief ${message.briefId} is not this panel's brief`, requestId };
        return { accept: message };
      case 'submitVerdict':
        if (message.briefId !== this.panel.briefId)
          return { reject: `stale: brief ${message.briefId} is not this panel's brief`, requestId };
        if (this.spent) return { reject: 'out of order: this brief is already spent', requestId };
        if (this.verdictInFlight)
          return { reject: 'out of order: a verdict is already being recorded', requestId };
        this.verdictInFlight = true;
        return { accept: message };
    }
  }

  /** Called when a verdict submission has been answered; `spent` when it was recorded. */
  settleVerdict(spent: boolean): void {
    this.verdictInFlight = false;
    if (spent) this.spent = true;
  }

  markSpent(): void {
    this.spent = true;
  }

  get isSpent(): boolean {
    return this.spent;
  }
}
