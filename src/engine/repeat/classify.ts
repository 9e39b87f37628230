// `classifyRepeat`: one inner run's outcome, the counters, the stall pauses
//, cycle resolution and the exit reason. Pure: the driver passes the captures and
// the summary; the earlier iterations come from the ledger's repeat records.
import type { Outcome } from '../types';
import { cycleQuestion, stallQuestion } from './questions';
import type { RepeatRunFacts } from './run-facts';
import type {
  Classification,
  ExitReason,
  PendingQuestion,
  RepeatCounters,
  RepeatRecord,
  RepeatState,
  Resolution,
} from './state';
import { concernsOf, settleSignal, similarInSubstance } from './summary';

export interface RepeatDecision {
  classification: Classification;
  /** The resolution known now (stay / forward-escape); pause answers add theirs later. */
  resolution: Resolution | null;
  cycleWith: number | null;
  counters: RepeatCounters;
  /** What happens next: run again, wait for an answer, or end. */
  route: 'next' | 'pause' | 'exit';
  exitReason: ExitReason | null;
  pending: PendingQuestion | null;
  /** Directive for the next run (forward escape). */
  directive: string | null;
  escaped: boolean;
  /** The outcome the ledger records (reference's mapping table). */
  reported: Outcome;
  events: string[];
}

export const STALL_PAUSE_AT = 3;
export const DEEPER_TOTAL_STALLS = 6;
export const ESCAPE_SURFACE_AT = 2;

type CycleChoice =
  { kind: 'stay'; why: string } | { kind: 'forward'; why: string } | { kind: 'surface'; why: string };

/**
 * Stay, forward escape, or ask. Coverage is compared only when both sides' summaries declare
 * their `concerns` (a JSON summary's list): the alternate covering strictly more → forward
 * escape; the current covering at least as much → stay; each covering something the other lacks
 * → a value judgement for the user. Free-text summaries give no asymmetric coverage to weigh,
 * so they are "comparably defensible": stay (the common LLM oscillation).
 */
export function resolveCycle(currentSummary: string, alternateSummary: string): CycleChoice {
  const current = concernsOf(currentSummary);
  const alternate = concernsOf(alternateSummary);
  if (current === null || alternate === null) {
    return { kind: 'stay', why: 'neither side declares concerns the other lacks; both are defensible' };
  }
  const onlyAlternate = alternate.filter((c) => !current.includes(c));
  const onlyCurrent = current.filter((c) => !alternate.includes(c));
  if (onlyAlternate.length === 0) {
    return { kind: 'stay', why: 'the current state covers every concern the alternate does' };
  }
  if (onlyCurrent.length === 0) return { kind: 'forward', why: `it also covers ${onlyAlternate.join(', ')}` };
  return {
    kind: 'surface',
    why: `the current side alone covers ${onlyCurrent.join(', ')}; the alternate alone covers ${onlyAlternate.join(', ')}`,
  };
}

export function escapeDirective(current: number, alternate: number, why: string): string {
  return (
    `You have oscillated between the state of iteration ${current} (A) and the state of iteration ` +
    `${alternate} (B). State B is preferred because ${why}. Make the forward changes needed to land at B ` +
    'and stay there. Do not undo newer work to get there.'
  );
}

/**
 * Classifies iteration `state.iteration + 1`. `lastAllowed` is true when no run may follow this one
 * (the `max=` cap, or the contract's iteration limit): a loop that would go on ends as max-cap.
 */
export function classifyRepeat(
  state: RepeatState,
  earlier: readonly RepeatRecord[],
  facts: RepeatRunFacts,
  lastAllowed: boolean,
): RepeatDecision {
  const iteration = state.iteration + 1;
  const counters: RepeatCounters = {
    iteration,
    consecutive_stalls: state.consecutive_stalls,
    total_stalls: state.total_stalls,
    first_pause_count: state.first_pause_count,
    forward_escape_attempts: state.forward_escape_attempts,
  };
  const base = {
    resolution: null,
    cycleWith: null,
    counters,
    exitReason: null,
    pending: null,
    directive: null,
    escaped: state.escaped,
    events: [] as string[],
  };
  const next = (decision: Omit<RepeatDecision, 'route' | 'reported' | 'exitReason'>): RepeatDecision =>
    lastAllowed
      ? {
          ...decision,
          route: 'exit',
          reported: 'stop',
          exitReason: 'max-cap',
          directive: null,
          events: [...decision.events, `iteration ${iteration}: no run left under the cap`],
        }
      : { ...decision, route: 'next', reported: 'continue', exitReason: null };

  if (facts.post === facts.pre) {
    const signal = settleSignal(facts.summary);
    if (signal.positive) {
      return {
        ...base,
        classification: 'settled',
        route: 'exit',
        reported: 'complete',
        exitReason: state.escaped ? 'forward-escape-resolved' : 'settled',
      };
    }
    counters.consecutive_stalls += 1;
    counters.total_stalls += 1;
    const events = [`iteration ${iteration}: stalled (${signal.reason})`];
    if (counters.consecutive_stalls < STALL_PAUSE_AT)
      return next({ ...base, classification: 'stalled', events });
    counters.first_pause_count += 1;
    const deeper = counters.first_pause_count >= 2 || counters.total_stalls >= DEEPER_TOTAL_STALLS;
    const pending = stallQuestion(deeper, iteration, counters, facts, earlier);
    return { ...base, classification: 'stalled', route: 'pause', reported: 'pause', pending, events };
  }

  const matchAt = findCycle(earlier, iteration, facts);
  if (matchAt === null) {
    counters.consecutive_stalls = 0;
    return next({ ...base, classification: 'continuing' });
  }
  counters.consecutive_stalls = 0;
  const alternateAt = matchAt + 1;
  // findCycle only returns i ≤ iteration − 2, so iteration i + 1 is always an earlier record.
  const alternate = earlier[alternateAt - 1] as RepeatRecord;
  const choice = resolveCycle(facts.summary, alternate.summary);
  const cycled = { ...base, classification: 'cycled' as const, cycleWith: matchAt };
  const seen = `iteration ${iteration}: cycled back to the state of iteration ${matchAt}`;
  if (choice.kind === 'stay') {
    return {
      ...cycled,
      resolution: 'stay',
      route: 'exit',
      reported: 'complete',
      exitReason: 'settled-via-cycle',
      events: [`${seen}; stay (${choice.why})`],
    };
  }
  if (choice.kind === 'forward') {
    counters.forward_escape_attempts += 1;
    if (counters.forward_escape_attempts < ESCAPE_SURFACE_AT) {
      return next({
        ...cycled,
        resolution: 'forward-escape',
        directive: escapeDirective(iteration, alternateAt, choice.why),
        escaped: true,
        events: [`${seen}; forward escape toward iteration ${alternateAt} (${choice.why})`],
      });
    }
  }
  const escapeFailed = counters.forward_escape_attempts >= ESCAPE_SURFACE_AT;
  const pending = cycleQuestion(
    iteration,
    matchAt,
    alternateAt,
    facts.summary,
    alternate.summary,
    choice.why,
    escapeFailed,
  );
  return {
    ...cycled,
    route: 'pause',
    reported: 'pause',
    pending,
    events: [
      `${seen}; surfaced to the user (${escapeFailed ? 'forward escape is not working' : choice.why})`,
    ],
  };
}

/**
 * The most recent earlier iteration i < iteration − 1 whose post-state equals this post-state and
 * whose summary is similar in substance. START_STATE is not among them (A→B→A shows at 3).
 */
function findCycle(
  earlier: readonly RepeatRecord[],
  iteration: number,
  facts: RepeatRunFacts,
): number | null {
  for (let i = iteration - 2; i >= 1; i--) {
    const record = earlier[i - 1];
    if (record && record.state === facts.post && similarInSubstance(record.summary, facts.summary)) return i;
  }
  return null;
}
