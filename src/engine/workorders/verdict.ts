// The three-way verdict after review and critique, from disk scalars only:
// TERMINAL = a HALT marker or a blocking critique; CLEAN = review pass, critique not blocking,
// no marker; RETRYABLE = a plain review failure. A `pass` review whose critique is missing
// matches none of the original's branches: it is treated as blocking (TERMINAL), on purpose.

export type Verdict = 'clean' | 'retryable' | 'terminal';

export interface VerdictFacts {
  haltMarker: boolean;
  reviewVerdict: unknown;
  /** The critique file's `.blocking`; undefined when the file is absent or unreadable. */
  critiqueBlocking: unknown;
}

export interface VerdictResult {
  verdict: Verdict;
  /** The obs disposition the branch maps to. */
  disposition: 'done' | 'needs_rework' | 'terminal_halt' | 'terminal_escalated';
  /** Why a terminal verdict is terminal (used when a marker must be written). */
  haltReason?: string;
}

export function verdict(facts: VerdictFacts): VerdictResult {
  // A blocking critique is recorded as escalated even though its rung also wrote the marker
  // (the sequential loop's mapping; the original's parallel sibling records terminal_halt).
  if (facts.critiqueBlocking === true) {
    return { verdict: 'terminal', disposition: 'terminal_escalated', haltReason: 'critique_blocking' };
  }
  if (facts.haltMarker) return { verdict: 'terminal', disposition: 'terminal_halt' };
  if (facts.reviewVerdict === 'pass') {
    if (facts.critiqueBlocking === false) return { verdict: 'clean', disposition: 'done' };
    return { verdict: 'terminal', disposition: 'terminal_escalated', haltReason: 'critique_missing' };
  }
  return { verdict: 'retryable', disposition: 'needs_rework' };
}
