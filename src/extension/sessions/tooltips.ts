// Markdown tooltips for the tree. Ledger text is user data: it is escaped, and the markdown is
// never trusted (no command links), so a ledger cannot run anything from a hover.
import * as vscode from 'vscode';
import { ownValue } from '../../engine/text-keyed';
import type { IterationRecord } from '../../engine/types';
import type { EpochView } from './epochs';
import { isStallPromoted, progressText, stateText, verdictText } from './labels';
import type { BrokenSession, ReadableSession } from './sessionEntry';
import { currentEpochView } from './epochs';
import { formatScore } from '../../shared/numbers';
import { budgetWords } from '../../shared/budget-words';

export function sessionTooltip(entry: ReadableSession): vscode.MarkdownString {
  const md = new Tooltip();
  const epoch = currentEpochView(entry.ledger, entry.held);
  md.heading(entry.session);
  md.field(vscode.l10n.t('State'), stateText(epoch.state, entry.ledger.final_outcome ?? null));
  md.field(vscode.l10n.t('Epoch'), vscode.l10n.t('{0} — {1}', epoch.n, epoch.purpose));
  md.field(vscode.l10n.t('Iterations this epoch'), progressText(epoch));
  md.field(vscode.l10n.t('Iterations in all'), String(entry.status.iterations));
  md.field(vscode.l10n.t('Last outcome'), entry.status.last_outcome ?? vscode.l10n.t('none yet'));
  md.field(vscode.l10n.t('Rubric'), verdictText(entry) ?? vscode.l10n.t('not scored yet'));
  if (entry.status.critic_verdict) md.field(vscode.l10n.t('Critic verdict'), entry.status.critic_verdict);
  if (entry.status.decision) md.field(vscode.l10n.t('Decision'), entry.status.decision);
  if (entry.status.stalls.length) md.field(vscode.l10n.t('Stalls'), entry.status.stalls.join(', '));
  const budget = budgetWords(entry.status.budget).replace(/^; budget /, '');
  if (budget) md.field(vscode.l10n.t('Budget spent / cap'), budget);
  md.field(
    vscode.l10n.t('Completed actions'),
    entry.status.completed_actions.join(', ') || vscode.l10n.t('none'),
  );
  md.field(
    vscode.l10n.t('Ledger'),
    entry.legacy
      ? vscode.l10n.t('{0} (original format, read-only until the first write)', entry.path)
      : entry.path,
  );
  return md.done();
}

export function brokenTooltip(entry: BrokenSession): vscode.MarkdownString {
  const md = new Tooltip();
  md.heading(vscode.l10n.t('{0}: cannot be read', entry.session));
  md.text(entry.problem);
  md.field(vscode.l10n.t('File'), entry.path);
  md.text(
    vscode.l10n.t(
      'Loop Ledger shows it and writes nothing to it. Fix the file, or re-open the session with loop-ledger open --force, which keeps a copy of it.',
    ),
  );
  return md.done();
}

export function epochTooltip(epoch: EpochView): vscode.MarkdownString {
  const md = new Tooltip();
  md.heading(
    epoch.current ? vscode.l10n.t('Epoch {0} (current)', epoch.n) : vscode.l10n.t('Epoch {0}', epoch.n),
  );
  md.field(vscode.l10n.t('Purpose'), epoch.purpose);
  md.field(vscode.l10n.t('State'), stateText(epoch.state, epoch.finalOutcome));
  md.field(vscode.l10n.t('Iterations'), progressText(epoch));
  if (epoch.closeBlocker) md.field(vscode.l10n.t('Blocker'), epoch.closeBlocker);
  if (epoch.closeNote) md.field(vscode.l10n.t('Note'), epoch.closeNote);
  return md.done();
}

export function iterationTooltip(record: IterationRecord): vscode.MarkdownString {
  const md = new Tooltip();
  md.heading(vscode.l10n.t('Iteration {0}: {1}', record.n, record.outcome));
  if (isStallPromoted(record)) {
    md.field(
      vscode.l10n.t('Stall'),
      vscode.l10n.t(
        '{0} — reported {1}, recorded {2}',
        record.stall!,
        record.reported_outcome!,
        record.outcome,
      ),
    );
  }
  if (record.timestamp) md.field(vscode.l10n.t('Recorded'), record.timestamp);
  md.field(vscode.l10n.t('Actions'), record.actions?.join(', ') || vscode.l10n.t('none'));
  measurementTable(md, record);
  if (record.critic_verdict) md.field(vscode.l10n.t('Critic verdict'), record.critic_verdict);
  if (record.critic_next) md.field(vscode.l10n.t('Critic next'), record.critic_next);
  if (record.decision) md.field(vscode.l10n.t('Decision'), record.decision);
  if (record.error_signature) md.field(vscode.l10n.t('Error signature'), record.error_signature);
  if (record.dependency_missing) md.field(vscode.l10n.t('Dependency missing'), record.dependency_missing);
  if (record.blocker) md.field(vscode.l10n.t('Blocker'), record.blocker);
  if (record.evidence) md.field(vscode.l10n.t('Evidence'), record.evidence);
  if (record.recommended_next) md.field(vscode.l10n.t('Recommended next'), record.recommended_next);
  if (record.evidence_paths?.length)
    md.field(vscode.l10n.t('Evidence paths'), record.evidence_paths.join(', '));
  if (record.note) md.field(vscode.l10n.t('Note'), record.note);
  return md.done();
}

/** Measurements against the baseline they were compared with, one row per rubric dimension. */
function measurementTable(md: Tooltip, record: IterationRecord): void {
  const evaluation = record.evaluation;
  if (!record.measurements || !evaluation) return;
  md.field(
    vscode.l10n.t('Rubric'),
    vscode.l10n.t('{0}, weighted total {1}', evaluation.verdict, formatScore(evaluation.weighted_total)),
  );
  const rows = evaluation.dimensions.map((d) => {
    const baseline = ownValue(record.baseline, d.dimension);
    const gate = d.gate_failed ? vscode.l10n.t(' ⚠ gate') : d.hard_gate ? vscode.l10n.t(' (gate)') : '';
    return `| ${escape(d.dimension)}${gate} | ${baseline ?? '–'} | ${d.measured} | ${formatScore(d.score)} |`;
  });
  md.raw(
    [
      '',
      vscode.l10n.t('| dimension | baseline | measured | score |'),
      '|---|---:|---:|---:|',
      ...rows,
      '',
    ].join('\n'),
  );
  if (evaluation.hard_gate_failures.length)
    md.field(vscode.l10n.t('Hard gates breached'), evaluation.hard_gate_failures.join(', '));
}

/** Backslash-escapes markdown syntax (and the table pipe) in ledger text. */
function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

class Tooltip {
  private readonly md = new vscode.MarkdownString('', false);

  heading(text: string): void {
    this.md.appendMarkdown(`**${escape(text)}**\n\n`);
  }

  field(name: string, value: string): void {
    this.md.appendMarkdown(`${name}: ${escape(value)}  \n`);
  }

  text(value: string): void {
    this.md.appendMarkdown(`\n${escape(value)}\n\n`);
  }

  raw(markdown: string): void {
    this.md.appendMarkdown(markdown);
  }

  done(): vscode.MarkdownString {
    this.md.isTrusted = false;
    this.md.supportHtml = false;
    return this.md;
  }
}
