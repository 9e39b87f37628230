// Findings in the words of the extension's UI. The engine's messages name CLI flags (the CLI is
// drop-in compatible); each finding also carries the fields it is about, and here each field is
// named as the form and the quick input label it: "--critic-next" reads "Critic next".
import * as l10n from '@vscode/l10n';
import { FIELD_OF_FLAG, FLAG_PATTERN } from '../engine/fields';
import type { Finding } from '../engine/types';

/** How each field is named where the extension asks for it, and how it reads inside a sentence. */
const UI_FIELD = (): Readonly<Record<string, { label: string; inSentence?: string }>> => ({
  critic_verdict: { label: l10n.t('Verdict') },
  critic_next: { label: l10n.t('Critic next') },
  critic_brief: { label: l10n.t('Brief') },
  evidence_paths: { label: l10n.t('Evidence paths'), inSentence: l10n.t('entry in “Evidence paths”') },
  decision: { label: l10n.t('Decision') },
  actions: { label: l10n.t('Actions'), inSentence: l10n.t('action') },
  measurements: { label: l10n.t('Measurements'), inSentence: l10n.t('measurement') },
  outcome: { label: l10n.t('Outcome') },
  blocker: { label: l10n.t('Blocker') },
  evidence: { label: l10n.t('Evidence') },
  recommended_next: { label: l10n.t('Recommended next') },
  dependency_missing: { label: l10n.t('Missing dependency') },
  error: { label: l10n.t('Error') },
  state: { label: l10n.t('State') },
  files_changed: { label: l10n.t('Files changed') },
  commands_run: { label: l10n.t('Commands run') },
  note: { label: l10n.t('Note') },
  stall_threshold: { label: l10n.t('Stall threshold') },
  baseline_evidence: { label: l10n.t('Baseline evidence'), inSentence: l10n.t('baseline evidence') },
});

/** The finding's message with each flag of a field it carries named as the UI names that field. */
export function inUiWords(finding: Finding): string {
  const fields = new Set(finding.fields ?? []);
  const text = finding.message.replace(FLAG_PATTERN, (flag) => {
    const field = Object.hasOwn(FIELD_OF_FLAG, flag) ? FIELD_OF_FLAG[flag]! : undefined;
    const ui = field && fields.has(field) ? UI_FIELD()[field] : undefined;
    return ui ? (ui.inSentence ?? l10n.t('“{0}”', ui.label)) : flag;
  });
  return sentence(text);
}

/** Run Loop's questions, by the `loop-ledger run` flag each one answers. */
const RUN_QUESTION = (): Readonly<Record<string, string>> => ({
  '--objective': l10n.t('Objective'),
  '--allow': l10n.t('Allowed globs'),
  '--check': l10n.t('Deterministic checks'),
  '--agent-config': l10n.t('Agent config'),
  '--max-attempts': l10n.t('Maximum attempts'),
  '--session': l10n.t('Session'),
  '--root': l10n.t('Workspace folder'),
});

/**
 * A Run Loop refusal (plain text from the harness, worded for `loop-ledger run`) with each flag
 * Run Loop asks about named as its question names it, as a sentence.
 */
export function runFindingInUiWords(text: string): string {
  const questions = RUN_QUESTION();
  const named = text.replace(FLAG_PATTERN, (flag) =>
    Object.hasOwn(questions, flag) ? l10n.t('“{0}”', questions[flag]!) : flag,
  );
  return sentence(named);
}

/** Starts with a capital and ends with a full stop, so findings can follow each other in one line. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}
