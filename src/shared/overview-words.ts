// The words the session overview and dashboard webviews show, keyed by their English text. As
// for the critic brief (brief-words.ts), the webview cannot call vscode.l10n: the host fills a table
// of these keys with translations (src/extension/overview/overviewWords.ts, where `npm run
// l10n:export` finds each as a literal) and posts it before the first model; the webview formats
// from the table and falls back to the key. Plain constants: the webview bundle imports them.
import { z } from 'zod';
import { MAX_BRIEF_WORD_CHARS } from './brief-words';
import { RECORD_FIELDS } from './record-fields';

export { RECORD_FIELDS } from './record-fields';

export const OVERVIEW_WORDS = [
  'Overview',
  'Owner',
  'Status',
  'Epoch',
  'Attempts',
  'Iterations',
  '{0} / {1} this epoch',
  '{0} / {1} this epoch · {2} in all',
  'Last activity',
  'Waiting for a verdict on',
  'Budgets',
  'no cap',
  'Cost (USD)',
  'Tokens',
  'Time (ms)',
  'Calls',
  'Changed lines',
  'Files',
  'Show table',
  'Hide table',
  'No measurements recorded yet.',
  'No weighted total recorded yet.',
  'No cost recorded yet.',
  '{0} values from #{1} to #{2}; lowest {3}, highest {4}, last {5}.',
  '{0} values from #{1} to #{2} ({3} buckets, each keeping its lowest and highest value); lowest {4}, highest {5}, last {6}.',
  '↑ higher is better',
  '↓ lower is better',
  '{0} ({1})',
  '{0} ({1}, hard gate)',
  'Triangles mark iterations where the hard gate failed.',
  'Triangles mark failing verdicts.',
  'hard gate',
  'weight {0}',
  '{0} per iteration',
  'Iteration',
  'Measured',
  'measured',
  'baseline',
  'target',
  'failure threshold',
  'Weighted total',
  'Cost per iteration (USD)',
  'Outcome timeline',
  '{0} iterations in {1} epoch(s); {2} stall(s); {3} critic verdict(s). Triangles above mark stalls, dots below mark critic verdicts.',
  'open brief',
  '▲ stall',
  '● critic verdict',
  'Critic verdicts',
  'Stalls',
  'Outcome per iteration',
  'Outcome',
  'Stall',
  'Verdict',
  'Repeat: change per iteration',
  'Work order: attempts',
  'Run: attempts',
  'resolution',
  'verdict',
  'attempt',
  'phases',
  'ended',
  'Click an iteration on a chart or the timeline to read its record here.',
  'Iteration #{0}',
  'No iterations recorded yet.',
  'Showing iterations #{0}–#{1} of {2}: the rest of the ledger is being read…',
  'Showing the newest {0} iterations (from #{1}): the rest of the ledger is being read…',
  'Trends',
  'Rubric',
  '{0} more dimensions are not charted.',
  'This ledger cannot be shown',
  'epoch {0}',
  'weighted total of {0}, last {1}',
  'Session',
  'n / limit',
  'Last outcome',
  'Spend',
  'unreadable',
  'stalled',
  'escalated',
  'over budget',
  'waiting for verdict',
  'all',
  'Kind',
  'Loop Ledger dashboard',
  '{0} session(s); {1} need a person. Loops that are stalled, escalated, over budget or waiting for a critic verdict come first.',
  'No sessions in this workspace yet.',
  'No session matches these filters.',
  'Sessions',
  'Checkpoint',
  'Compare with Previous Iteration',
  'Compare with Workspace',
  'Restore Workspace to This Iteration',
  // An iteration record's field names, shown in the overview's side panel.
  ...RECORD_FIELDS,
] as const;

export type OverviewWord = (typeof OVERVIEW_WORDS)[number];

/** The table the host posts: known keys only, each a bounded, non-blank string. */
export const OverviewWordTable = z
  .object(
    Object.fromEntries(
      OVERVIEW_WORDS.map((key) => [key, z.string().trim().min(1).max(MAX_BRIEF_WORD_CHARS).optional()]),
    ) as Record<OverviewWord, z.ZodOptional<z.ZodString>>,
  )
  .strict();
export type OverviewWordTable = Partial<Record<OverviewWord, string>>;
