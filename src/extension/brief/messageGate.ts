// Every message the webview posts passes this gate before the host acts on it. A webview is a
// browser page: its messages may be malformed, huge, replayed or early, and none of those may
// record anything. The gate answers "accept" with the parsed message, or "reject" with a reason
// the host logs. No vscode import: the rules are plain and tested as such.
import { FromWebview, MAX_INCOMING_MESSAGE_CHARS } from '../../shared/protocol';
import { WebviewAdmission } from '../webviewAdmission';

export type GateDecision = { accept: FromWebview } | { reject: string; requestId?: string };

/** What the gate needs to know about the panel it guards. */
export interface GatedPanel {
  readonly briefId: string;
  /** Paths the diff names; "open in diff editor" is refused for any other path. */
  readonly diffPaths: ReadonlySet<string>;
}

export class MessageGate {
  private spent = false;
  private verdictInFlight = false;
  private readonly admission = new WebviewAdmission(
    FromWebview,
    MAX_INCOMING_MESSAGE_CHARS,
    'a panel message',
  );

  constructor(private readonly panel: GatedPanel) {}

  check(raw: unknown): GateDecision {
    const admitted = this.admission.admit(raw);
    if ('reject' in admitted) return admitted;
    if ('ready' in admitted) return { accept: admitted.ready };
    const message = admitted.request;
    const { requestId } = message;
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
