// Does a loop need a person, and for what? A ledger needs one when its current epoch ended in a
// stall, an escalation or a budget cap, or when a brief is armed and waits for the critic's
// verdict. Each such moment is one event with a stable key (session, epoch, iteration, kind), so
// a caller that remembers the keys it announced never announces the same moment twice, and a
// re-open (a new epoch) or a recorded verdict makes the need go away. Pure.
import { currentEpoch, recordEpoch } from './ledger-view';
import type { IterationRecord, Ledger, StallName } from './types';

export const ATTENTION_KINDS = ['stall', 'escalation', 'budget', 'verdict'] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

export interface AttentionEvent {
  kind: AttentionKind;
  /** `session:epoch:n:kind` — what a caller remembers so a reload does not repeat the event. */
  key: string;
  session: string;
  epoch: number;
  /** The iteration the event belongs to (0 before the epoch's first record). */
  n: number;
  /** The stall predicate, the cap's words, the escalation's blocker or the brief id. */
  detail: string | null;
}

/** Caps that stop a loop: reaching one is a budget event, not a stall. */
const BUDGET_STALLS: readonly string[] = [
  'cost-exhausted',
  'tokens-exhausted',
  'time-exhausted',
  'budget-stop',
];

export function isBudgetStall(stall: StallName | string | null | undefined): boolean {
  return typeof stall === 'string' && BUDGET_STALLS.includes(stall);
}

function lastOfEpoch(ledger: Pick<Ledger, 'epoch' | 'iterations'>): IterationRecord | null {
  const last = ledger.iterations[ledger.iterations.length - 1];
  return last && recordEpoch(last) === currentEpoch(ledger) ? last : null;
}

function event(
  ledger: Pick<Ledger, 'session'>,
  epoch: number,
  n: number,
  kind: AttentionKind,
  detail: string | null,
): AttentionEvent {
  return { kind, key: `${ledger.session}:${epoch}:${n}:${kind}`, session: ledger.session, epoch, n, detail };
}

/**
 * The events `ledger` shows now (at most one ending and one armed brief). A closed epoch's ending
 * comes from its last record: a budget cap, else another stall, else an escalate outcome; a loop
 * closed as `escalate` by `close` (no record) is an escalation too.
 */
export function attentionEvents(
  ledger: Pick<
    Ledger,
    'session' | 'status' | 'final_outcome' | 'epoch' | 'iterations' | 'pending_brief' | 'close_blocker'
  >,
): AttentionEvent[] {
  const epoch = currentEpoch(ledger);
  const last = lastOfEpoch(ledger);
  const n = last?.n ?? 0;
  const events: AttentionEvent[] = [];
  if (ledger.status === 'closed') {
    const endedByLast = last !== null && last.outcome === ledger.final_outcome;
    if (endedByLast && isBudgetStall(last.stall)) events.push(event(ledger, epoch, n, 'budget', last.stall));
    else if (endedByLast && last.stall) events.push(event(ledger, epoch, n, 'stall', last.stall));
    else if (ledger.final_outcome === 'escalate') {
      const blocker = (endedByLast ? last.blocker : null) ?? ledger.close_blocker ?? null;
      events.push(event(ledger, epoch, n, 'escalation', blocker));
    }
  }
  const brief = ledger.pending_brief?.brief_id;
  if (ledger.status === 'open' && typeof brief === 'string' && brief !== '') {
    events.push(event(ledger, epoch, n, 'verdict', brief));
  }
  return events;
}

/** Whether the loop needs a person now (what the activity-bar badge counts). */
export function needsPerson(ledger: Parameters<typeof attentionEvents>[0]): boolean {
  return attentionEvents(ledger).length > 0;
}

/**
 * The events not announced before (`shown` holds their keys), among the kinds switched on.
 * `keyOf` is the key a caller remembers an event by: a caller that sees several folders adds the
 * folder, since a session id is unique within one folder only.
 */
export function newAttentionEvents(
  events: readonly AttentionEvent[],
  shown: ReadonlySet<string>,
  enabled: (kind: AttentionKind) => boolean = () => true,
  keyOf: (event: AttentionEvent) => string = (event) => event.key,
): AttentionEvent[] {
  return events.filter((e) => !shown.has(keyOf(e)) && enabled(e.kind));
}
