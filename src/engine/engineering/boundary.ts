// The permission-boundary rule: a boundary that crosses into production, deployment,
// publishing, external or shared systems must name both an approval and a rollback.
//
// Two deliberate differences from the original, which is too lenient about risk here:
// - it excuses the whole boundary when ONE negation ("no", "not", "without", "deny", "denied")
//   sits within 32 characters before ANY risky word, so "no push; deploy to production allowed"
//   passes. Here each risky word is excused only by its own negation, within 32 characters
//   before it and in the same clause (no `;`, sentence end, "but" or "except" between them);
// - it does not count "deployment" (nor "deployed", "publishing" …) as risky. Here every
//   inflection of deploy and publish counts.
// Everything the original refuses is still refused.
import { PY_WHITESPACE } from '../python-text';
import { textPattern } from './unicode';

const RISKY = textPattern(
  (c) =>
    `${c.start}(?:productions?|deploy(?:s|ed|ing|ments?)?|publish(?:es|ed|ing)?|external|shared)${c.end}`,
  'g',
);
const NEGATION = textPattern((c) => `${c.start}(?:no|not|without|deny|denied)${c.end}`, 'g');
const CLAUSE_END = textPattern(
  (c) => `;|[.!?](?:[${PY_WHITESPACE}]|$)|${c.start}(?:but|except|however)${c.end}`,
  '',
);

/** The risky words of a (normalised) boundary that no negation of their own excuses. */
export function unexcusedRiskyWords(boundary: string): string[] {
  const negations = [...boundary.matchAll(NEGATION(boundary))].map((m) => (m.index as number) + m[0].length);
  const clauseEnd = CLAUSE_END(boundary); // picking the build reads the whole text: once, not per word
  const out: string[] = [];
  let first = 0; // negations ending more than 32 characters back never excuse a later word
  for (const risky of boundary.matchAll(RISKY(boundary))) {
    const at = risky.index as number;
    while (first < negations.length && (negations[first] as number) < at - 32) first++;
    let excused = false;
    for (let i = first; i < negations.length && (negations[i] as number) <= at && !excused; i++) {
      excused = !clauseEnd.test(boundary.slice(negations[i], at));
    }
    if (!excused) out.push(risky[0]);
  }
  return out;
}

/** Whether the boundary needs an approval and a rollback it does not name. */
export function boundaryNeedsApprovalRollback(boundary: string): boolean {
  if (unexcusedRiskyWords(boundary).length === 0) return false;
  return !boundary.includes('approval') || !boundary.includes('rollback');
}
