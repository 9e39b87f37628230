// Records a verdict from the panel's form: one iteration through src/app's iterateOp with this
// brief's id as `criticBrief`, exactly what `loop-ledger iterate --critic-brief …` records. The
// engine decides every refusal (no brief pending, a mismatched id, retain over a breached gate…).
import { iterateOp, type Outcome } from '../../app/operations';
import type { IterationRecord } from '../../engine/types';
import type { VerdictForm } from '../../shared/protocol';

export function recordVerdict(
  root: string,
  session: string,
  briefId: string,
  form: VerdictForm,
  now: Date = new Date(),
): Outcome<IterationRecord> {
  return iterateOp(root, session, {
    outcome: form.outcome,
    criticVerdict: form.verdict,
    criticNext: form.criticNext,
    criticBrief: briefId,
    evidencePaths: form.evidencePaths,
    decision: form.decision,
    actions: form.actions,
    measures: form.measurements,
    note: form.note,
    blocker: form.blocker,
    evidence: form.evidence,
    recommendedNext: form.recommendedNext,
    now,
  });
}
