// The permission-boundary rule: a boundary that crosses into production, deployment,
// publishing, external or shared systems must name both an approval and a rollback.
//
// A negation ("no", "not", "without", "deny", "denied") governs the rest of its clause, so it
// excuses every risky word of the list it heads: "local branch writes only; no push, merge,
// deploy, external update, or shared-state mutation" needs nothing more, however long the list.
// A clause ends at `;`, a sentence end, or a word that turns the sentence around ("but",
// "except", "however", "unless", or one that grants: "allowed", "permitted", "may", "can").
//
// Deliberate differences from the original, which reads distance instead of clauses:
// - it excuses the whole boundary when ONE negation sits within 32 characters before ANY risky
//   word, so "no push; deploy to production allowed" passes. Here each risky word needs a
//   negation of its own clause;
// - it excuses nothing more than 32 characters after a negation, so a long negated list is
//   refused. Here the negation reaches its clause's end;
// - it does not count "deployment" (nor "deployed", "publishing" …) as risky. Here every
//   inflection of deploy and publish counts.
import { PY_WHITESPACE } from '../python-text';
import { textPattern } from './unicode';

const RISKY = textPattern(
  (c) =>
    `${c.start}(?:productions?|deploy(?:s|ed|ing|ments?)?|publish(?:es|ed|ing)?|external|shared)${c.end}`,
  'g',
);
const NEGATION = textPattern((c) => `${c.start}(?:no|not|without|deny|denied)${c.end}`, 'g');
const CLAUSE_END = textPattern(
  (c) =>
    `;|[.!?](?:[${PY_WHITESPACE}]|$)|${c.start}(?:but|except|however|unless|allow(?:s|ed)?|permit(?:s|ted)?|may|can)${c.end}`,
  'g',
);

/** Where each match of `pattern` over `text` starts (ascending). */
function starts(text: string, pattern: RegExp): number[] {
  return [...text.matchAll(pattern)].map((m) => m.index as number);
}

/** The risky words of a (normalised) boundary that no negation of their own clause excuses. */
export function unexcusedRiskyWords(boundary: string): string[] {
  // One pass over each list, in order: the text is read once whatever its length.
  const negationEnds = [...boundary.matchAll(NEGATION(boundary))].map(
    (m) => (m.index as number) + m[0].length,
  );
  const clauseEnds = starts(boundary, CLAUSE_END(boundary));
  const out: string[] = [];
  let lastNegation = -1; // end of the last negation before the risky word
  let lastClauseEnd = -1; // start of the last clause end before the risky word
  let n = 0;
  let c = 0;
  for (const risky of boundary.matchAll(RISKY(boundary))) {
    const at = risky.index as number;
    while (n < negationEnds.length && (negationEnds[n] as number) <= at)
      lastNegation = negationEnds[n++] as number;
    while (c < clauseEnds.length && (clauseEnds[c] as number) < at) lastClauseEnd = clauseEnds[c++] as number;
    // excused when a negation opens this word's clause: none ended between the two
    const excused = lastNegation >= 0 && lastClauseEnd < lastNegation;
    if (!excused) out.push(risky[0]);
  }
  return out;
}

/** Whether the boundary needs an approval and a rollback it does not name. */
export function boundaryNeedsApprovalRollback(boundary: string): boolean {
  if (unexcusedRiskyWords(boundary).length === 0) return false;
  return !boundary.includes('approval') || !boundary.includes('rollback');
}
