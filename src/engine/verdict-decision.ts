// The decision a critic's verdict implies, offered as the default wherever a person records one
// (the brief panel's form). Only a default: the person may choose another, and `iterate` judges
// the pair (e.g. retain over a breached hard gate is refused).
import type { CriticVerdict, Decision } from './types';

export const DECISION_FOR_VERDICT: Readonly<Record<CriticVerdict, Decision>> = {
  PASS: 'retain',
  FAIL: 'revert',
  REVISE: 'revise',
  REVERT: 'revert',
  ESCALATE: 'escalate',
};

/** The implied decision, or undefined for a word that is not a verdict. */
export function decisionForVerdict(verdict: string): Decision | undefined {
  return Object.hasOwn(DECISION_FOR_VERDICT, verdict)
    ? DECISION_FOR_VERDICT[verdict as CriticVerdict]
    : undefined;
}
