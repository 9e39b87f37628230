// Records a verdict from the panel's form: one iteration through src/app's iterateOp (or the
// store's iterate, on a store window) with this brief's id as `criticBrief`, exactly what
// `loop-ledger iterate --critic-brief …` records. The engine decides every refusal (no brief
// pending, a mismatched id, retain over a breached gate…).
import { iterateOp, type Outcome } from '../../app/ledger/operations';
import type { IterateInput } from '../../engine/iterate';
import type { IterationRecord } from '../../engine/types';
import type { VerdictForm } from '../../shared/protocol';
import type { StoreWrites } from '../sessions/sessionSource';
import { writeWithoutBlocking } from '../workspace/ledgerWrites';

export function recordVerdict(
  root: string,
  session: string,
  briefId: string,
  form: VerdictForm,
  store?: StoreWrites,
  now: Date = new Date(),
): Promise<Outcome<IterationRecord>> {
  const input = verdictInput(briefId, form, now);
  if (store !== undefined) return store.run((s) => s.iterate(session, input));
  return writeWithoutBlocking((lock) => iterateOp(root, session, input, lock));
}

function verdictInput(briefId: string, form: VerdictForm, now: Date): IterateInput {
  return {
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
  };
}
