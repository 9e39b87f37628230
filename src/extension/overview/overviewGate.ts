// Every message the overview or dashboard webview posts passes this gate before the host acts on
// it, as the critic-brief panel's do (brief/messageGate.ts): too large, malformed, early or
// replayed messages are refused with a reason, and an iteration or session the page names must be
// one the host knows. No vscode import: plain rules, tested as such.
import { FromOverview, MAX_OVERVIEW_MESSAGE_CHARS } from '../../shared/overview-protocol';
import { WebviewAdmission } from '../webviewAdmission';

export type OverviewDecision = { accept: FromOverview } | { reject: string; requestId?: string };

/** What the gate asks the page it guards. */
export interface GatedPage {
  /** Whether iteration `n` is in the ledger shown (false on the dashboard). */
  hasIteration(n: number): boolean;
  /** Whether the session is one the page lists (false on an overview). */
  listsSession(root: string, session: string): boolean;
}

export class OverviewGate {
  private readonly admission = new WebviewAdmission(
    FromOverview,
    MAX_OVERVIEW_MESSAGE_CHARS,
    'an overview message',
  );

  constructor(private readonly page: GatedPage) {}

  check(raw: unknown): OverviewDecision {
    const admitted = this.admission.admit(raw);
    if ('reject' in admitted) return admitted;
    if ('ready' in admitted) return { accept: admitted.ready };
    const message = admitted.request;
    const { requestId } = message;
    switch (message.type) {
      case 'showIteration':
      case 'openBrief':
      case 'checkpoint':
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
