// `wo reconcile-table`'s operation: one read of the work-orders folder, one row per work order.
import { reconcileTable } from '../../engine/workorders/reconcile';
import { woFacts, woListing } from '../../drivers/workorders/files';

export function reconcileFolder(dir: string): ReturnType<typeof reconcileTable> {
  const { names, woFiles } = woListing(dir);
  return reconcileTable(woFiles.map((name) => woFacts(dir, name, names)));
}
