// `loop-ledger wo parallel-batch <dir> [--max N]`, `wo merge-back <git-dir> <branch>` and
// `wo review-snapshot <task> <wo-id>`: the parallel conductor's kernels.
import { isDirectory } from '../../../app/workorders/folders';
import { batchPlan, mergeBack, reviewSnapshot } from '../../../app/workorders/parallel-ops';
import { err, out, parseKernelFlags } from './io';

export function batchMain(argv: string[]): number {
  const flags = parseKernelFlags(argv, ['--max']);
  const dir = flags.positionals[0] ?? '';
  const maxText = flags.values.get('--max') ?? '8';
  const max = /^[0-9]+$/.test(maxText) ? Number(maxText) : 8;
  const usage = dir === '' ? 'missing_work_orders_dir' : !isDirectory(dir) ? 'work_orders_dir_missing' : '';
  if (usage) {
    out({ error: usage });
    err(`wo-parallel-batch error=${usage}`);
    return 2;
  }
  const plan = batchPlan(dir, max);
  out(plan);
  err(
    `wo-parallel-batch ready=${plan.ready_total} batch=${plan.batch.length} deferred=${plan.deferred.length} max=${max}`,
  );
  return 0;
}

export function mergeBackMain(argv: string[]): number {
  const [dir = '', branch = ''] = argv;
  const result = mergeBack(dir, branch);
  out(result.payload);
  const reason =
    result.exitCode === 2 ? result.payload.error : result.exitCode === 3 ? 'merge_conflict' : 'null';
  err(`wo-merge-back branch=${branch} merged=${result.exitCode === 0} reason=${reason}`);
  return result.exitCode;
}

/** Copies `<task>/_review.json` to `work-orders/<wo>._review.json`, pinning gate envelopes. */
export function reviewSnapshotMain(argv: string[]): number {
  const [task = '', wo = ''] = argv;
  if (!task || !isDirectory(task)) {
    out({ ok: false, reason: 'task_folder_missing' });
    return 2;
  }
  if (!/^[A-Za-z0-9._-]+$/.test(wo) || wo.includes('..')) {
    out({ ok: false, reason: 'bad_wo_id' });
    return 2;
  }
  const result = reviewSnapshot(task, wo);
  out(result);
  return result.ok ? 0 : 1;
}
