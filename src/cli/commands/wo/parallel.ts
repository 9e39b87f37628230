// `loop-ledger wo parallel-batch <dir> [--max N]`, `wo merge-back <git-dir> <branch>` and
// `wo review-snapshot <task> <wo-id>`: the parallel conductor's kernels.
import { join } from 'node:path';
import { mkdirSync, copyFileSync } from 'node:fs';
import { parallelBatch } from '../../../engine/workorders/batch';
import { isObject } from '../../../engine/workorders/jq';
import { reconcileRow } from '../../../engine/workorders/reconcile';
import {
  isDirectory,
  listNames,
  readText,
  woFacts,
  woFileNames,
  writeTextAtomic,
} from '../../../drivers/workorders/files';
import { mergeBack } from '../../../drivers/workorders/merge-back';
import { err, out, parseFlags } from './io';

export function batchMain(argv: string[]): number {
  const flags = parseFlags(argv, ['--max']);
  const dir = flags.positionals[0] ?? '';
  const maxText = flags.values.get('--max') ?? '8';
  const max = /^[0-9]+$/.test(maxText) ? Number(maxText) : 8;
  const usage = dir === '' ? 'missing_work_orders_dir' : !isDirectory(dir) ? 'work_orders_dir_missing' : '';
  if (usage) {
    out({ error: usage });
    err(`wo-parallel-batch error=${usage}`);
    return 2;
  }
  const inputs = woFileNames(dir).map((fileName) => {
    const facts = woFacts(dir, fileName);
    return { fileName, text: facts.text, row: reconcileRow(facts) };
  });
  const plan = parallelBatch(dir, inputs, max);
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
  const text = readText(join(task, '_review.json'));
  let review: unknown;
  try {
    review = text === undefined ? undefined : JSON.parse(text);
  } catch {
    review = undefined;
  }
  if (review === undefined) {
    out({ ok: false, reason: 'review_json_absent' });
    return 1;
  }
  const snapshot = join(task, 'validations', wo);
  mkdirSync(snapshot, { recursive: true });
  const latest = join(task, 'validations', 'latest');
  let gates = 0;
  for (const name of listNames(latest).filter((n) => n.endsWith('.json'))) {
    copyFileSync(join(latest, name), join(snapshot, name));
    gates += 1;
  }
  const gateSpecific = isObject(review) ? review.gate_specific : undefined;
  if (isObject(gateSpecific) && Array.isArray(gateSpecific.gates_run)) {
    gateSpecific.gates_run = gateSpecific.gates_run.map((gate: unknown) =>
      isObject(gate) && typeof gate.envelope_path === 'string'
        ? {
            ...gate,
            envelope_path: gate.envelope_path.split('/validations/latest/').join(`/validations/${wo}/`),
          }
        : gate,
    );
  }
  const ref = join(task, 'work-orders', `${wo}._review.json`);
  writeTextAtomic(ref, `${JSON.stringify(review, null, 2)}\n`);
  out({ ok: true, review_ref: ref, snapshot_dir: snapshot, gates });
  return 0;
}
