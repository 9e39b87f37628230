// `parallel-batch`: from the ready set, the largest greedy (ascending id, version order) batch of
// work orders whose declared files are provably disjoint, so they can build concurrently without
// a merge conflict. When disjointness cannot be proven, the work order waits — never a gamble.
import { filesToTouch } from './body';
import { frontmatterRegion, frontmatterScalar } from './frontmatter';
import { compareVersion, shortId } from './ids';
import type { ReconcileRow } from './reconcile';

/** The `wo-NN` ids named on the `blocked_by:` line or its `- ` items (sorted, unique). */
export function blockedByIds(text: string): string[] {
  const region = frontmatterRegion(text);
  if (region.start < 0) return [];
  const ids = new Set<string>();
  let grab = false;
  const collect = (line: string): void => {
    for (const m of line.matchAll(/wo-[0-9]+/g)) ids.add(m[0]);
  };
  for (const line of region.lines.slice(region.start, region.end)) {
    if (line.startsWith('blocked_by:')) {
      grab = true;
      collect(line);
    } else if (grab && /^\s*-/.test(line)) collect(line);
    else if (grab && /^\S/.test(line)) grab = false;
  }
  return [...ids].sort();
}

export function normalisePath(path: string): string {
  let s = path.replace(/\r$/, '');
  while (s.startsWith('./')) s = s.slice(2);
  while (s.includes('//')) s = s.replace(/\/\//g, '/');
  while (s.includes('/./')) s = s.replace(/\/\.\//g, '/');
  if (s !== '/' && s.endsWith('/')) s = s.slice(0, -1);
  return s;
}

function literalPrefix(path: string): string {
  const i = path.search(/[*?[{]/);
  return i < 0 ? path : path.slice(0, i);
}

/** Conservative: true unless the two declared entries are provably disjoint. */
export function pathsOverlap(x: string, y: string): boolean {
  const a = normalisePath(x);
  const b = normalisePath(y);
  if (a === b) return true;
  const pa = literalPrefix(a).replace(/\/$/, '');
  const pb = literalPrefix(b).replace(/\/$/, '');
  if (pa === '' || pb === '') return true;
  if (pa === pb) return true;
  return pb.startsWith(`${pa}/`) || pa.startsWith(`${pb}/`);
}

export interface BatchInput {
  fileName: string;
  text: string;
  row: ReconcileRow;
}

export interface BatchPlan {
  schema_version: '1.0';
  work_orders_dir: string;
  ready_total: number;
  max: number;
  batch: { wo_id: string; files: string[] }[];
  deferred: { wo_id: string; conflicts_with: string[]; reason: string }[];
  warnings: string[];
}

export function parallelBatch(dir: string, inputs: BatchInput[], max: number): BatchPlan {
  const statusOf = new Map(inputs.map((i) => [i.row.wo_id, i.row.status]));
  const info = new Map<string, { deps: string[]; files: string[]; row: ReconcileRow }>();
  for (const input of inputs) {
    const id = shortId(input.fileName, frontmatterScalar(input.text, 'id'));
    info.set(id, { deps: blockedByIds(input.text), files: filesToTouch(input.text), row: input.row });
  }
  const eligible = [...info.keys()].sort(compareVersion).filter((id) => {
    const wo = info.get(id);
    if (!wo || wo.row.terminal) return false;
    if (wo.row.status === 'ready' || wo.row.status === 'needs_rework') return true;
    if (wo.row.status !== 'blocked' || wo.deps.length === 0) return false;
    return wo.deps.every((dep) => statusOf.get(dep) === 'done');
  });
  const plan: BatchPlan = {
    schema_version: '1.0',
    work_orders_dir: dir,
    ready_total: eligible.length,
    max,
    batch: [],
    deferred: [],
    warnings: [],
  };
  for (const id of eligible) {
    const files = info.get(id)?.files ?? [];
    if (plan.batch.length >= max) {
      plan.deferred.push({ wo_id: id, conflicts_with: [], reason: 'batch_full' });
      continue;
    }
    if (files.length === 0) {
      plan.warnings.push(`${id} declares no files in '## Files to touch'; can only run solo`);
      if (plan.batch.length === 0) plan.batch.push({ wo_id: id, files: [] });
      else
        plan.deferred.push({
          wo_id: id,
          conflicts_with: plan.batch.map((b) => b.wo_id),
          reason: 'no_files_declared',
        });
      continue;
    }
    const conflicts = plan.batch
      .filter(
        (member) =>
          member.files.length === 0 || files.some((c) => member.files.some((m) => pathsOverlap(c, m))),
      )
      .map((member) => member.wo_id);
    if (conflicts.length === 0) plan.batch.push({ wo_id: id, files });
    else plan.deferred.push({ wo_id: id, conflicts_with: conflicts, reason: 'file_overlap' });
  }
  return plan;
}
