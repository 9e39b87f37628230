// `loop-ledger wo reconcile-table <work-orders-dir>` — the read-only consolidated reconcile read.
import { isDirectory } from '../../../app/workorders/folders';
import { reconcileFolder } from '../../../app/workorders/reconcile-table';
import { err, out } from './io';

export function main(argv: string[]): number {
  const dir = argv[0] ?? '';
  const usage = dir === '' ? 'missing_work_orders_dir' : !isDirectory(dir) ? 'work_orders_dir_missing' : '';
  if (usage) {
    out({ error: usage });
    err(`wo-reconcile-table error=${usage}`);
    return 2;
  }
  const table = reconcileFolder(dir);
  out(table.rows);
  err(table.stderr);
  return 0;
}
