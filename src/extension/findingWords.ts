// Findings in the words of the extension's UI. The engine's messages name CLI flags (the CLI is
// drop-in compatible); each finding also carries the fields it is about, and here each field is
// named as the form and the quick input label it: "--critic-next" reads "Critic next".
import { FIELD_OF_FLAG, FLAG_PATTERN } from '../engine/fields';
import type { Finding } from '../engine/types';

/** How each field is named where the extension asks for it, and how it reads inside a sentence. */
const UI_FIELD: Readonly<Record<string, { label: string; inSentence?: string }>> = {
  critic_verdict: { label: 'Verdict' },
  critic_next: { label: 'Critic next' },
  critic_brief: { label: 'Brief' },
  evidence_paths: { label: 'Evidence paths', inSentence: 'entry in “Evidence paths”' },
  decision: { label: 'Decision' },
  actions: { label: 'Actions', inSentence: 'action' },
  measurements: { label: 'Measurements', inSentence: 'measurement' },
  outcome: { label: 'Outcome' },
  blocker: { label: 'Blocker' },
  evidence: { label: 'Evidence' },
  recommended_next: { label: 'Recommended next' },
  dependency_missing: { label: 'Missing dependency' },
  error: { label: 'Error' },
  state: { label: 'State' },
  files_changed: { label: 'Files changed' },
  commands_run: { label: 'Commands run' },
  note: { label: 'Note' },
  stall_threshold: { label: 'Stall threshold' },
  baseline_evidence: { label: 'Baseline evidence', inSentence: 'baseline evidence' },
};

/** The finding's message with each flag of a field it carries named as the UI names that field. */
export function inUiWords(finding: Finding): string {
  const fields = new Set(finding.fields ?? []);
  const text = finding.message.replace(FLAG_PATTERN, (flag) => {
    const field = Object.hasOwn(FIELD_OF_FLAG, flag) ? FIELD_OF_FLAG[flag]! : undefined;
    const ui = field && fields.has(field) ? UI_FIELD[field] : undefined;
    return ui ? (ui.inSentence ?? `“${ui.label}”`) : flag;
  });
  return sentence(text);
}

/** Starts with a capital and ends with a full stop, so findings can follow each other in one line. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}
