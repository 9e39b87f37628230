// The words the critic-brief webview shows, keyed by their English text. The webview cannot call
// vscode.l10n: the host fills a table of these keys with translations (src/extension/brief/
// briefWords.ts, where `npm run l10n:export` finds each as a literal) and sends it in the `show`
// message; the webview formats from the table and falls back to the key, so a missing or refused
// entry still reads in English. Plain constants and one function: the webview bundle imports them.

export const BRIEF_WORDS = [
  // header and layout (main.ts)
  'Critic brief',
  'session {0} · {1}',
  'Rubric, scope, verification and verdict',
  'verdict recorded as iteration {0}.',
  'The host did not accept that request: {0}',
  // diff column (diff-view.ts)
  '{0} added, {1} removed',
  'Not declared in the change scope',
  'undeclared',
  'modified',
  'added',
  'deleted',
  'renamed',
  'binary',
  'Changed files',
  "Open {0} in VS Code's diff editor",
  'Open in diff editor',
  '{0}, before',
  '{0}, after',
  'Wrap long lines instead of scrolling',
  'Wrap lines',
  'Expand all',
  'Collapse all',
  'Diff — {0} file(s), +{1} −{2}',
  // scope, rubric, verification, asks (packet-view.ts, view-model.ts)
  'verified',
  'unverified',
  'No change scope was given.',
  'Declared paths ({0})',
  'Paths in the diff ({0})',
  'Scope',
  'Provenance:',
  'Unverified: nothing shows that this diff is the whole change. Judge only what the diff contains.',
  'Verified: the diff covers every path the change scope declares.',
  'Verified: the diff covers the declared scope, and touches {0} path(s) the scope does not declare.',
  'hard gate',
  'must not regress',
  'higher is better',
  'lower is better',
  'Dimension',
  'Weight',
  'Baseline',
  'Target',
  'Threshold',
  'Baseline also carries: {0}',
  'Rubric and baseline',
  'The contract has no rubric.',
  'A baseline shown in bold was measured in the ledger; the others are declared.',
  'Verification output',
  'What the critic is asked',
  // the verdict form (verdict-form.ts)
  'Verdict',
  '(none)',
  'The single most valuable next improvement',
  'One path per line, e.g. .loop/evidence/suite.txt',
  'Action ids completed in this iteration, one per line',
  'DIM=NUMBER, one per line',
  'Optional note',
  'What blocks the loop',
  'What shows it',
  'Who should do what next',
  'Blocker',
  'Evidence',
  'Recommended next',
  'Critic next',
  'Required with a verdict.',
  'Evidence paths',
  'At least one; one per line.',
  'Decision',
  'Outcome',
  'Actions',
  'Measurements',
  'Scored against the rubric.',
  'Note',
  'Record verdict',
  'Recording…',
  'Verdict recorded',
  'Export packet',
  'This brief is spent: {0}',
  'Recorded as iteration {0}',
  'Refused (exit {0}): {1}',
  'This workspace is not trusted: Loop Ledger is read-only here, so no verdict can be recorded.',
] as const;

export type BriefWord = (typeof BRIEF_WORDS)[number];

/** Longer than any honest translation of a key; a longer value is refused (English is shown). */
export const MAX_BRIEF_WORD_CHARS = 600;

/**
 * `key` from `table` (the English key when the table has no usable entry for it), `{0}`… replaced
 * by `args`. A value is usable when it is a string of bounded length, read as an own property only.
 */
export function formatWord(
  table: Readonly<Record<string, unknown>>,
  key: string,
  ...args: Array<string | number>
): string {
  const entry = Object.hasOwn(table, key) ? table[key] : undefined;
  const text =
    typeof entry === 'string' && entry.length > 0 && entry.length <= MAX_BRIEF_WORD_CHARS ? entry : key;
  return text.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const arg = args[Number(index)];
    return arg === undefined ? whole : String(arg);
  });
}
