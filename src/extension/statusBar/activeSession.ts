import type { SessionNode } from '../sessions/nodes';
import type { SessionsTreeProvider } from '../sessions/treeProvider';

/**
 * Which session the status bar follows: the one selected in the tree, while it still exists;
 * otherwise the open session whose ledger was written most recently (the loop being worked on).
 */
export class ActiveSession {
  private selected: { root: string; session: string } | undefined;

  constructor(private readonly sessions: SessionsTreeProvider) {}

  select(node: SessionNode | undefined): void {
    this.selected = node ? { root: node.root.path, session: node.entry.session } : undefined;
  }

  current(): SessionNode | undefined {
    if (this.selected) {
      const node = this.sessions.findSession(this.selected.root, this.selected.session);
      if (node) return node;
    }
    let newest: SessionNode | undefined;
    for (const node of this.sessions.sessionNodes()) {
      if (node.entry.kind !== 'ledger' || node.entry.ledger.status !== 'open') continue;
      if (!newest || node.mtimeMs > newest.mtimeMs) newest = node;
    }
    return newest;
  }
}
