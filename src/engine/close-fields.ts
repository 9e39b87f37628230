// Closing a ledger: shared by a terminal iteration and `close`, which must leave the same six keys.
import { isBlank } from './ledger-view';
import type { Ledger, Outcome } from './types';

export interface CloseFacts {
  outcome: Outcome;
  note: string | null;
  blocker: string | null;
  evidence: string | null;
  recommended_next: string | null;
}

export function closeLedger(ledger: Ledger, facts: CloseFacts): Ledger {
  return {
    ...ledger,
    status: 'closed',
    final_outcome: facts.outcome,
    close_note: facts.note,
    close_blocker: facts.blocker,
    close_evidence: facts.evidence,
    close_recommended_next: facts.recommended_next,
  };
}

/** The names of the escalate fields left blank (escalate needs all three). */
export function missingEscalateFields(
  facts: Pick<CloseFacts, 'blocker' | 'evidence' | 'recommended_next'>,
): string[] {
  const missing: string[] = [];
  if (isBlank(facts.blocker)) missing.push('--blocker');
  if (isBlank(facts.evidence)) missing.push('--evidence');
  if (isBlank(facts.recommended_next)) missing.push('--recommended-next');
  return missing;
}

/** How a refusal over a ledger's state reads; `open` and `close` use the same word for one state. */
export function wrongStateMessage(
  ledger: Pick<Ledger, 'session' | 'status' | 'final_outcome'>,
  advice: string,
): string {
  const how = ledger.status === 'closed' && ledger.final_outcome ? ` (${ledger.final_outcome})` : '';
  return `${ledger.session}: ledger is ${ledger.status}${how} — ${advice}`;
}
