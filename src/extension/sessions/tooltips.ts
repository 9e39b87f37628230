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
  const epoch = currentEpochView(entry.ledger);
  md.heading(entry.session);
  md.field('State', stateText(epoch.state, entry.ledger.final_outcome ?? null));
  md.field('Epoch', `${epoch.n} — ${epoch.purpose}`);
  md.field('Iterations this epoch', progressText(epoch));
  md.field('Iterations in all', String(entry.status.iterations));
  md.field('Last outcome', entry.status.last_outcome ?? 'none yet');
  md.field('Rubric', verdictText(entry) ?? 'not scored yet');
  if (entry.status.critic_verdict) md.field('Critic verdict', entry.status.critic_verdict);
  if (entry.status.decision) md.field('Decision', entry.status.decision);
  if (entry.status.stalls.length) md.field('Stalls', entry.status.stalls.join(', '));
  const budget = budgetWords(entry.status.budget).replace(/^; budget /, '');
  if (budget) md.field('Budget spent / cap', budget);
  md.field('Completed actions', entry.status.completed_actions.join(', ') || 'none');
  md.field(
    'Ledger',
    entry.legacy ? `${entry.path} (original format, read-only until the first write)` : entry.path,
  );
  return md.done();
}

export function brokenTooltip(entry: BrokenSession): vscode.MarkdownString {
  const md = new Tooltip();
  md.heading(`${entry.session}: cannot be read`);
  md.text(entry.problem);
  md.field('File', entry.path);
  md.text(
    'Loop Ledger shows it and writes nothing to it. Fix the file, or re-open the session with loop-ledger open --force, which keeps a copy of it.',
  );
  return md.done();
}

export function epochTooltip(epoch: EpochView): vscode.MarkdownString {
  const md = new Tooltip();
  md.heading(`Epoch ${epoch.n}${epoch.current ? ' (current)' : ''}`);
  md.field('Purpose', epoch.purpose);
  md.field('State', stateText(epoch.state, epoch.finalOutcome));
  md.field('Iterations', progressText(epoch));
  if (epoch.closeBlocker) md.field('Blocker', epoch.closeBlocker);
  if (epoch.closeNote) md.field('Note', epoch.closeNote);
  return md.done();
}

export function iterationTooltip(record: IterationRecord): vscode.MarkdownString {
  const md = new Tooltip();
  md.heading(`Iteration ${record.n}: ${record.outcome}`);
  if (isStallPromoted(record)) {
    md.field('Stall', `${record.stall} — reported ${record.reported_outcome}, recorded ${record.outcome}`);
  }
  if (record.timestamp) md.field('Recorded', record.timestamp);
  md.field('Actions', record.actions?.join(', ') || 'none');
  measurementTable(md, record);
  if (record.critic_verdict) md.field('Critic verdict', record.critic_verdict);
  if (record.critic_next) md.field('Critic next', record.critic_next);
  if (record.decision) md.field('Decision', record.decision);
  if (record.error_signature) md.field('Error signature', record.error_signature);
  if (record.dependency_missing) md.field('Dependency missing', record.dependency_missing);
  if (record.blocker) md.field('Blocker', record.blocker);
  if (record.evidence) md.field('Evidence', record.evidence);
  if (record.recommended_next) md.field('Recommended next', record.recommended_next);
  if (record.evidence_paths?.length) md.field('Evidence paths', record.evidence_paths.join(', '));
  if (record.note) md.field('Note', record.note);
  return md.done();
}

/** Measurements against the baseline they were compared with, one row per rubric dimension. */
function measurementTable(md: Tooltip, record: IterationRecord): void {
  const evaluation = record.evaluation;
  if (!record.measurements || !evaluation) return;
  md.field('Rubric', `${evaluation.verdict}, weighted total ${formatScore(evaluation.weighted_total)}`);
  const rows = evaluation.dimensions.map((d) => {
    const baseline = ownValue(record.baseline, d.dimension);
    const gate = d.gate_failed ? ' ⚠ gate' : d.hard_gate ? ' (gate)' : '';
    return `| ${escape(d.dimension)}${gate} | ${baseline ?? '–'} | ${d.measured} | ${formatScore(d.score)} |`;
  });
  md.raw(['', '| dimension | baseline | measured | score |', '|---|---:|---:|---:|', ...rows, ''].join('\n'));
  if (evaluation.hard_gate_failures.length)
    md.field('Hard gates breached', evaluation.hard_gate_failures.join(', '));
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
