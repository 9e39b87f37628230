// What the Work Orders view shows, read from disk asynchronously (never a sync read on the
// extension host): every `<task>/work-orders/` folder under the workspace, each work order's
// reconcile row, its dependencies, why it waits, and the recovery row in words. The rules are the
// engine's — the same functions `loop-ledger wo` runs.
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readFrontmatter } from '../../engine/workorders/frontmatter-yaml';
import { frontmatterScalar } from '../../engine/workorders/frontmatter';
import { KILL_SWITCH_NAME } from '../../engine/workorders/admin';
import { compareVersion, shortId, sidecars } from '../../engine/workorders/ids';
import { isObject, objectOrEmpty } from '../../engine/workorders/jq';
import {
  DISPOSITION_WORDS,
  disposition,
  reconcileRow,
  type ReconcileRow,
} from '../../engine/workorders/reconcile';
import { depsProblem } from '../../engine/workorders/status';
import { readWorkOrderText } from '../../app/workorders/read-async';

export interface WorkOrder {
  id: string;
  fileName: string;
  path: string;
  title: string;
  row: ReconcileRow;
  attempts: number;
  dependsOn: string[];
  /** The first unmet dependency (`deps_not_done:<id>`), when it is blocked. */
  waitingOn?: string;
  /** The recovery/queue row in words ("resume at review"). */
  next: string;
  critiqueOverall: string;
}

export interface Task {
  /** The task folder (parent of `work-orders/`). */
  path: string;
  name: string;
  dir: string;
  killed: boolean;
  workOrders: WorkOrder[];
}

export async function loadTask(taskPath: string): Promise<Task> {
  const dir = join(taskPath, 'work-orders');
  const names = await readdir(dir).then(
    (list) => list.sort(),
    () => [] as string[],
  );
  const present = new Set(names);
  const files = names.filter((n) => n.startsWith('wo-') && n.endsWith('.md'));
  const texts = new Map<string, string>();
  await Promise.all(files.map(async (f) => texts.set(f, (await readWorkOrderText(join(dir, f))) ?? '')));
  const siblings = (fragment: string) =>
    files.filter((f) => f.startsWith(`${fragment}-`)).map((f) => ({ text: texts.get(f) ?? '' }));
  const workOrders = await Promise.all(
    files.map(async (fileName): Promise<WorkOrder> => {
      const body = texts.get(fileName) ?? '';
      const id = shortId(fileName, frontmatterScalar(body, 'id'));
      const side = sidecars(id);
      const read = async (name: string) =>
        present.has(name) ? ((await readWorkOrderText(join(dir, name))) ?? '') : undefined;
      const [run, review, critique, halt] = await Promise.all([
        read(side.run),
        read(side.review),
        read(side.critique),
        read(side.halt),
      ]);
      const row = reconcileRow({ fileName, text: body, run, review, critique, halt });
      const fm = readFrontmatter(body);
      const data = fm.ok ? fm.data : {};
      const blockedBy = Array.isArray(data.blocked_by) ? data.blocked_by.map(String) : [];
      const waitingOn = depsProblem(data.blocked_by, siblings);
      const runObject = objectOrEmpty(run);
      return {
        id,
        fileName,
        path: join(dir, fileName),
        title: typeof data.title === 'string' ? data.title : fileName,
        row,
        attempts: typeof runObject.attempts === 'number' ? runObject.attempts : 0,
        dependsOn: blockedBy.map((d) => d.slice(d.lastIndexOf('#') + 1)),
        waitingOn: row.status === 'blocked' ? waitingOn : undefined,
        next: DISPOSITION_WORDS[
          disposition(row, waitingOn === undefined, runObject.produced_changes === false)
        ],
        critiqueOverall: isObject(objectOrEmpty(critique))
          ? String(objectOrEmpty(critique).overall ?? 'missing')
          : 'missing',
      };
    }),
  );
  workOrders.sort((a, b) => compareVersion(a.fileName, b.fileName));
  return {
    path: taskPath,
    name: taskPath.slice(taskPath.lastIndexOf('/') + 1),
    dir,
    killed: (await readWorkOrderText(join(taskPath, KILL_SWITCH_NAME))) !== undefined,
    workOrders,
  };
}

/** Task folders from the paths of their work-order files. */
export function taskPathsOf(woFiles: string[]): string[] {
  return [...new Set(woFiles.map((f) => dirname(dirname(f))))].sort();
}
