// The parallel conductor's operations behind `wo parallel-batch`, `wo merge-back` and
// `wo review-snapshot`: which ready work orders run together, folding a branch back, and
// pinning a task review with its gate envelopes under the work order's name.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parallelBatch } from '../../engine/workorders/batch';
import { isObject } from '../../engine/workorders/jq';
import { reconcileRow } from '../../engine/workorders/reconcile';
import { listNames, readText, woFacts, woFileNames, writeTextAtomic } from '../../drivers/workorders/files';
export { mergeBack } from '../../drivers/workorders/merge-back';

export function batchPlan(dir: string, max: number): ReturnType<typeof parallelBatch> {
  const inputs = woFileNames(dir).map((fileName) => {
    const facts = woFacts(dir, fileName);
    return { fileName, text: facts.text, row: reconcileRow(facts) };
  });
  return parallelBatch(dir, inputs, max);
}

export type SnapshotResult =
  | { ok: false; reason: 'review_json_absent' }
  | { ok: true; review_ref: string; snapshot_dir: string; gates: number };

/**
 * Copies `<task>/_review.json` to `work-orders/<wo>._review.json` and the gate envelopes of
 * `validations/latest` to `validations/<wo>`, pointing the review's envelope paths at the copy.
 */
export function reviewSnapshot(task: string, wo: string): SnapshotResult {
  const text = readText(join(task, '_review.json'));
  let review: unknown;
  try {
    review = text === undefined ? undefined : JSON.parse(text);
  } catch {
    review = undefined;
  }
  if (review === undefined) return { ok: false, reason: 'review_json_absent' };
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
  return { ok: true, review_ref: ref, snapshot_dir: snapshot, gates };
}
