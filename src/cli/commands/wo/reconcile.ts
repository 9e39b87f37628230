// `loop-ledger wo reconcile-table <work-orders-dir>` — the read-only consolidated reconcile read.
import { reconcileTable } from '../../../engine/workorders/reconcile';
import { isDirectory, woFacts, woListing } from '../../../drivers/workorders/files';
import { err, out } from './io';

export function main(argv: string[]): number {
  const dir = argv[0] ?? '';
  const usage = dir === '' ? 'missing_work_orders_dir' : !isDirectory(dir) ? 'work_orders_dir_missing' : '';
  if (usage) {
    out({ error: usage });
    err(`wo-reconcile-table error=${usage}`);
    return 2;
  }
  const { names, woFiles } = woListing(dir);
  const table = reconcileTable(woFiles.map((name) => woFacts(dir, name, names)));
  out(table.rows);
  err(table.stderr);
  return 0;
}
