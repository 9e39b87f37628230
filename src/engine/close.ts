// `close`: end an open loop without recording an iteration.
import { closeLedger, missingEscalateFields, wrongStateMessage } from './close-fields';
import { EXIT, refuse, type Refusal } from './refusal';
import type { Ledger, Outcome } from './types';

export interface CloseInput {
  outcome: Outcome;
  blocker?: string | null;
  evidence?: string | null;
  recommendedNext?: string | null;
  note?: string | null;
}

export function close(
  ledger: Ledger,
  input: CloseInput,
): { ledger: Ledger; payload: { session: string; status: 'closed'; final_outcome: Outcome } } | Refusal {
  if (ledger.status !== 'open') {
    return refuse(EXIT.wrongState, [wrongStateMessage(ledger, 'close needs an open ledger')]);
  }
  if (input.outcome === 'continue') {
    return refuse(EXIT.usage, [
      'close --outcome continue: continue does not end a loop; use a terminal outcome',
    ]);
  }
  const facts = {
    blocker: input.blocker ?? null,
    evidence: input.evidence ?? null,
    recommended_next: input.recommendedNext ?? null,
  };
  if (input.outcome === 'escalate') {
    const missing = missingEscalateFields(facts);
    if (missing.length > 0)
      return refuse(
        EXIT.malformed,
        missing.map((flag) => `escalate needs ${flag}`),
      );
  }
  const empty = (t: string | null) => (t === '' ? null : t);
  const next = closeLedger(ledger, {
    outcome: input.outcome,
    note: empty(input.note ?? null),
    blocker: empty(facts.blocker),
    evidence: empty(facts.evidence),
    recommended_next: empty(facts.recommended_next),
  });
  return {
    ledger: next,
    payload: { session: ledger.session, status: 'closed', final_outcome: input.outcome },
  };
}
