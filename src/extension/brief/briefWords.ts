// The critic-brief webview's words in the display language: one `l10n.t('literal')` per key of
// src/shared/brief-words.ts, so `npm run l10n:export` collects them into l10n/bundle.l10n.json
// like every other string of the extension. The host sends the table in the panel's `show`
// message. It is checked before it leaves (BriefWordTable in protocol.ts): a translation that is
// blank or oversized is dropped, and the webview shows the English key for it.
import * as l10n from '@vscode/l10n';
import type { BriefWord } from '../../shared/brief-words';
import { BriefWordTable } from '../../shared/protocol';

/** Every key, translated now (the bundle is the one VS Code loaded; see sharedL10n.ts). */
function translated(): Record<BriefWord, string> {
  return {
    'Critic brief': l10n.t('Critic brief'),
    'session {0} · {1}': l10n.t('session {0} · {1}'),
    'Rubric, scope, verification and verdict': l10n.t('Rubric, scope, verification and verdict'),
    'verdict recorded as iteration {0}.': l10n.t('verdict recorded as iteration {0}.'),
    'The host did not accept that request: {0}': l10n.t('The host did not accept that request: {0}'),
    '{0} added, {1} removed': l10n.t('{0} added, {1} removed'),
    'Not declared in the change scope': l10n.t('Not declared in the change scope'),
    undeclared: l10n.t('undeclared'),
    modified: l10n.t('modified'),
    added: l10n.t('added'),
    deleted: l10n.t('deleted'),
    renamed: l10n.t('renamed'),
    binary: l10n.t('binary'),
    'Changed files': l10n.t('Changed files'),
    "Open {0} in VS Code's diff editor": l10n.t("Open {0} in VS Code's diff editor"),
    'Open in diff editor': l10n.t('Open in diff editor'),
    '{0}, before': l10n.t('{0}, before'),
    '{0}, after': l10n.t('{0}, after'),
    'Wrap long lines instead of scrolling': l10n.t('Wrap long lines instead of scrolling'),
    'Wrap lines': l10n.t('Wrap lines'),
    'Expand all': l10n.t('Expand all'),
    'Collapse all': l10n.t('Collapse all'),
    'Diff — {0} file(s), +{1} −{2}': l10n.t('Diff — {0} file(s), +{1} −{2}'),
    verified: l10n.t('verified'),
    unverified: l10n.t('unverified'),
    'No change scope was given.': l10n.t('No change scope was given.'),
    'Declared paths ({0})': l10n.t('Declared paths ({0})'),
    'Paths in the diff ({0})': l10n.t('Paths in the diff ({0})'),
    Scope: l10n.t('Scope'),
    'Provenance:': l10n.t('Provenance:'),
    'Unverified: nothing shows that this diff is the whole change. Judge only what the diff contains.':
      l10n.t(
        'Unverified: nothing shows that this diff is the whole change. Judge only what the diff contains.',
      ),
    'Verified: the diff covers every path the change scope declares.': l10n.t(
      'Verified: the diff covers every path the change scope declares.',
    ),
    'Verified: the diff covers the declared scope, and touches {0} path(s) the scope does not declare.':
      l10n.t(
        'Verified: the diff covers the declared scope, and touches {0} path(s) the scope does not declare.',
      ),
    'hard gate': l10n.t('hard gate'),
    'must not regress': l10n.t('must not regress'),
    'higher is better': l10n.t('higher is better'),
    'lower is better': l10n.t('lower is better'),
    Dimension: l10n.t('Dimension'),
    Weight: l10n.t('Weight'),
    Baseline: l10n.t('Baseline'),
    Target: l10n.t('Target'),
    Threshold: l10n.t('Threshold'),
    'Baseline also carries: {0}': l10n.t('Baseline also carries: {0}'),
    'Rubric and baseline': l10n.t('Rubric and baseline'),
    'The contract has no rubric.': l10n.t('The contract has no rubric.'),
    'A baseline shown in bold was measured in the ledger; the others are declared.': l10n.t(
      'A baseline shown in bold was measured in the ledger; the others are declared.',
    ),
    'Verification output': l10n.t('Verification output'),
    'What the critic is asked': l10n.t('What the critic is asked'),
    Verdict: l10n.t('Verdict'),
    '(none)': l10n.t('(none)'),
    'The single most valuable next improvement': l10n.t('The single most valuable next improvement'),
    'One path per line, e.g. .loop/evidence/suite.txt': l10n.t(
      'One path per line, e.g. .loop/evidence/suite.txt',
    ),
    'Action ids completed in this iteration, one per line': l10n.t(
      'Action ids completed in this iteration, one per line',
    ),
    'DIM=NUMBER, one per line': l10n.t('DIM=NUMBER, one per line'),
    'Optional note': l10n.t('Optional note'),
    'What blocks the loop': l10n.t('What blocks the loop'),
    'What shows it': l10n.t('What shows it'),
    'Who should do what next': l10n.t('Who should do what next'),
    Blocker: l10n.t('Blocker'),
    Evidence: l10n.t('Evidence'),
    'Recommended next': l10n.t('Recommended next'),
    'Critic next': l10n.t('Critic next'),
    'Required with a verdict.': l10n.t('Required with a verdict.'),
    'Evidence paths': l10n.t('Evidence paths'),
    'At least one; one per line.': l10n.t('At least one; one per line.'),
    Decision: l10n.t('Decision'),
    Outcome: l10n.t('Outcome'),
    Actions: l10n.t('Actions'),
    Measurements: l10n.t('Measurements'),
    'Scored against the rubric.': l10n.t('Scored against the rubric.'),
    Note: l10n.t('Note'),
    'Record verdict': l10n.t('Record verdict'),
    'Recording…': l10n.t('Recording…'),
    'Verdict recorded': l10n.t('Verdict recorded'),
    'Export packet': l10n.t('Export packet'),
    'This brief is spent: {0}': l10n.t('This brief is spent: {0}'),
    'Recorded as iteration {0}': l10n.t('Recorded as iteration {0}'),
    'Refused (exit {0}): {1}': l10n.t('Refused (exit {0}): {1}'),
    'This workspace is not trusted: Loop Ledger is read-only here, so no verdict can be recorded.': l10n.t(
      'This workspace is not trusted: Loop Ledger is read-only here, so no verdict can be recorded.',
    ),
  };
}

/** The table the webview formats from: only known keys, each a bounded, non-blank string. */
export function briefWordTable(): BriefWordTable {
  const table: BriefWordTable = {};
  for (const [key, value] of Object.entries(translated()) as [BriefWord, string][]) {
    // One entry at a time, so one bad translation costs its own key, not the whole table.
    if (BriefWordTable.safeParse({ [key]: value }).success) table[key] = value;
  }
  return table;
}
