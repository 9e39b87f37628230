// The dashboard's rows from what the Sessions tree has read: one per session, a broken ledger as
// its reason, in the default order. No vscode here, so the benchmark drives exactly this code.
import { basename } from 'node:path';
import { brokenRow, dashboardRow, orderRows, type DashboardRow } from '../../engine/overview/dashboard';
import type { SessionNode } from '../sessions/nodes';

/** Every session the tree has read, as dashboard rows in the default order. */
export function currentRows(nodes: readonly Pick<SessionNode, 'root' | 'entry'>[]): DashboardRow[] {
  const rows = nodes.map((node) => {
    const { entry } = node;
    const folder = node.root.name || basename(node.root.path);
    if (entry.kind === 'broken') return brokenRow(entry.root, folder, entry.session, entry.problem);
    try {
      return dashboardRow(entry.root, folder, entry.ledger, entry.status, entry.held);
    } catch (error) {
      return brokenRow(entry.root, folder, entry.session, `unreadable ledger: ${(error as Error).message}`);
    }
  });
  return orderRows(rows, 'lastActivity', true);
}
