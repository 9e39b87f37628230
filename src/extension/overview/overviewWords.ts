// The overview and dashboard webviews' words in the display language: one `l10n.t('literal')` per
// key of src/shared/overview-words.ts, so `npm run l10n:export` collects them into
// l10n/bundle.l10n.json like every other string of the extension. The host posts the table before
// the page's first model; a translation that is blank or oversized is dropped (the page shows the
// English key for it).
import * as l10n from '@vscode/l10n';
import { OverviewWordTable, type OverviewWord } from '../../shared/overview-words';

/** Every key, translated now (the bundle is the one VS Code loaded). */
function translated(): Record<OverviewWord, string> {
  return {
    Overview: l10n.t('Overview'),
    Owner: l10n.t('Owner'),
    Status: l10n.t('Status'),
    Epoch: l10n.t('Epoch'),
    Attempts: l10n.t('Attempts'),
    Iterations: l10n.t('Iterations'),
    '{0} / {1} this epoch': l10n.t('{0} / {1} this epoch'),
    '{0} / {1} this epoch · {2} in all': l10n.t('{0} / {1} this epoch · {2} in all'),
    'Last activity': l10n.t('Last activity'),
    'Waiting for a verdict on': l10n.t('Waiting for a verdict on'),
    Budgets: l10n.t('Budgets'),
    'no cap': l10n.t('no cap'),
    'Cost (USD)': l10n.t('Cost (USD)'),
    Tokens: l10n.t('Tokens'),
    'Time (ms)': l10n.t('Time (ms)'),
    Calls: l10n.t('Calls'),
    'Changed lines': l10n.t('Changed lines'),
    Files: l10n.t('Files'),
    'Show table': l10n.t('Show table'),
    'Hide table': l10n.t('Hide table'),
    'No measurements recorded yet.': l10n.t('No measurements recorded yet.'),
    'No weighted total recorded yet.': l10n.t('No weighted total recorded yet.'),
    'No cost recorded yet.': l10n.t('No cost recorded yet.'),
    '{0} values from #{1} to #{2}; lowest {3}, highest {4}, last {5}.': l10n.t(
      '{0} values from #{1} to #{2}; lowest {3}, highest {4}, last {5}.',
    ),
    '{0} values from #{1} to #{2} ({3} buckets, each keeping its lowest and highest value); lowest {4}, highest {5}, last {6}.':
      l10n.t(
        '{0} values from #{1} to #{2} ({3} buckets, each keeping its lowest and highest value); lowest {4}, highest {5}, last {6}.',
      ),
    '↑ higher is better': l10n.t('↑ higher is better'),
    '↓ lower is better': l10n.t('↓ lower is better'),
    '{0} ({1})': l10n.t('{0} ({1})'),
    '{0} ({1}, hard gate)': l10n.t('{0} ({1}, hard gate)'),
    'Triangles mark iterations where the hard gate failed.': l10n.t(
      'Triangles mark iterations where the hard gate failed.',
    ),
    'Triangles mark failing verdicts.': l10n.t('Triangles mark failing verdicts.'),
    'hard gate': l10n.t('hard gate'),
    'weight {0}': l10n.t('weight {0}'),
    '{0} per iteration': l10n.t('{0} per iteration'),
    Iteration: l10n.t('Iteration'),
    Measured: l10n.t('Measured'),
    measured: l10n.t('measured'),
    baseline: l10n.t('baseline'),
    target: l10n.t('target'),
    'failure threshold': l10n.t('failure threshold'),
    'Weighted total': l10n.t('Weighted total'),
    'Cost per iteration (USD)': l10n.t('Cost per iteration (USD)'),
    'Outcome timeline': l10n.t('Outcome timeline'),
    '{0} iterations in {1} epoch(s); {2} stall(s); {3} critic verdict(s). Triangles above mark stalls, dots below mark critic verdicts.':
      l10n.t(
        '{0} iterations in {1} epoch(s); {2} stall(s); {3} critic verdict(s). Triangles above mark stalls, dots below mark critic verdicts.',
      ),
    'open brief': l10n.t('open brief'),
    '▲ stall': l10n.t('▲ stall'),
    '● critic verdict': l10n.t('● critic verdict'),
    'Critic verdicts': l10n.t('Critic verdicts'),
    Stalls: l10n.t('Stalls'),
    'Outcome per iteration': l10n.t('Outcome per iteration'),
    Outcome: l10n.t('Outcome'),
    Stall: l10n.t('Stall'),
    Verdict: l10n.t('Verdict'),
    'Repeat: change per iteration': l10n.t('Repeat: change per iteration'),
    'Work order: attempts': l10n.t('Work order: attempts'),
    'Run: attempts': l10n.t('Run: attempts'),
    classification: l10n.t('classification'),
    'change metric': l10n.t('change metric'),
    resolution: l10n.t('resolution'),
    outcome: l10n.t('outcome'),
    verdict: l10n.t('verdict'),
    evidence: l10n.t('evidence'),
    attempt: l10n.t('attempt'),
    phases: l10n.t('phases'),
    ended: l10n.t('ended'),
    '{0} / {1}': l10n.t('{0} / {1}'),
    'Run {0}: its folder is missing or unreadable; phases and receipt are not shown.': l10n.t(
      'Run {0}: its folder is missing or unreadable; phases and receipt are not shown.',
    ),
    'Run {0}: no final receipt yet.': l10n.t('Run {0}: no final receipt yet.'),
    'Run {0}: the final receipt cannot be read.': l10n.t('Run {0}: the final receipt cannot be read.'),
    'The work-order file was not found in this folder; attempts are counted from the ledger.': l10n.t(
      'The work-order file was not found in this folder; attempts are counted from the ledger.',
    ),
    'The work order’s run-state file cannot be read; attempts are counted from the ledger.': l10n.t(
      'The work order’s run-state file cannot be read; attempts are counted from the ledger.',
    ),
    'Run {0}: receipt verdict {1} ({2})': l10n.t('Run {0}: receipt verdict {1} ({2})'),
    '{0} / {1} attempts': l10n.t('{0} / {1} attempts'),
    'Click an iteration on a chart or the timeline to read its record here.': l10n.t(
      'Click an iteration on a chart or the timeline to read its record here.',
    ),
    'Iteration #{0}': l10n.t('Iteration #{0}'),
    'No iterations recorded yet.': l10n.t('No iterations recorded yet.'),
    'Showing iterations #{0}–#{1} of {2}: the rest of the ledger is being read…': l10n.t(
      'Showing iterations #{0}–#{1} of {2}: the rest of the ledger is being read…',
    ),
    'Showing the newest {0} iterations (from #{1}): the rest of the ledger is being read…': l10n.t(
      'Showing the newest {0} iterations (from #{1}): the rest of the ledger is being read…',
    ),
    Trends: l10n.t('Trends'),
    Rubric: l10n.t('Rubric'),
    '{0} more dimensions are not charted.': l10n.t('{0} more dimensions are not charted.'),
    'This ledger cannot be shown': l10n.t('This ledger cannot be shown'),
    'epoch {0}': l10n.t('epoch {0}'),
    'weighted total of {0}, last {1}': l10n.t('weighted total of {0}, last {1}'),
    Session: l10n.t('Session'),
    'n / limit': l10n.t('n / limit'),
    'Last outcome': l10n.t('Last outcome'),
    Spend: l10n.t('Spend'),
    unreadable: l10n.t('unreadable'),
    stalled: l10n.t('stalled'),
    escalated: l10n.t('escalated'),
    'over budget': l10n.t('over budget'),
    'waiting for verdict': l10n.t('waiting for verdict'),
    all: l10n.t('all'),
    Kind: l10n.t('Kind'),
    'Loop Ledger dashboard': l10n.t('Loop Ledger dashboard'),
    '{0} session(s); {1} need a person. Loops that are stalled, escalated, over budget or waiting for a critic verdict come first.':
      l10n.t(
        '{0} session(s); {1} need a person. Loops that are stalled, escalated, over budget or waiting for a critic verdict come first.',
      ),
    'No sessions in this workspace yet.': l10n.t('No sessions in this workspace yet.'),
    'No session matches these filters.': l10n.t('No session matches these filters.'),
    Sessions: l10n.t('Sessions'),
    Checkpoint: l10n.t('Checkpoint'),
    'Compare with Previous Iteration': l10n.t('Compare with Previous Iteration'),
    'Compare with Workspace': l10n.t('Compare with Workspace'),
    'Restore Workspace to This Iteration': l10n.t('Restore Workspace to This Iteration'),
    'reported outcome': l10n.t('reported outcome'),
    timestamp: l10n.t('timestamp'),
    epoch: l10n.t('epoch'),
    stall: l10n.t('stall'),
    decision: l10n.t('decision'),
    'critic verdict': l10n.t('critic verdict'),
    'critic next': l10n.t('critic next'),
    'critic brief': l10n.t('critic brief'),
    'weighted total': l10n.t('weighted total'),
    measurements: l10n.t('measurements'),
    actions: l10n.t('actions'),
    'files changed': l10n.t('files changed'),
    'commands run': l10n.t('commands run'),
    'evidence paths': l10n.t('evidence paths'),
    note: l10n.t('note'),
    blocker: l10n.t('blocker'),
    'recommended next': l10n.t('recommended next'),
    'cost usd': l10n.t('cost usd'),
    'tokens in': l10n.t('tokens in'),
    'tokens out': l10n.t('tokens out'),
  };
}

/** The table the page formats from: only known keys, each a bounded, non-blank string. */
export function overviewWordTable(): OverviewWordTable {
  const table: OverviewWordTable = {};
  for (const [key, value] of Object.entries(translated()) as [OverviewWord, string][]) {
    // One entry at a time, so one bad translation costs its own key, not the whole table.
    if (OverviewWordTable.safeParse({ [key]: value }).success) table[key] = value;
  }
  return table;
}
