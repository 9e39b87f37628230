// The verdict form: what the critic decided and why, recorded by the host through the engine's
// `iterate` with this brief's id. After a submission the form shows the engine's answer — the
// record, or the refusal with its exit code and findings — and once a verdict is recorded the
// brief is spent and the form stays disabled.
import { DECISIONS, OUTCOMES } from '../src/engine/types';
import { decisionForVerdict } from '../src/engine/verdict-decision';
import type { Finding, PanelState, RecordView, VerdictForm } from '../src/shared/protocol';
import { h, section } from './dom';
import { w } from './words';

type Field = HTMLElement & { value: string; disabled: boolean };

export interface VerdictFormActions {
  submit(form: VerdictForm): void;
  exportPacket(): void;
}

/** Non-blank lines of a multi-line field (evidence paths, actions, measurements). */
export function lines(text: string): string[] {
  return text
    .split(/\r?\n|,(?=\s*\S+=)|;/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function optionalText(text: string): string | null {
  return text.trim() === '' ? null : text;
}

function select(id: string, options: readonly string[], chosen: string): Field {
  return h(
    'vscode-single-select',
    { id, name: id },
    ...options.map((option) =>
      h(
        'vscode-option',
        { value: option, selected: option === chosen },
        option === '' ? w('(none)') : option,
      ),
    ),
  ) as unknown as Field;
}

function group(label: string, id: string, field: HTMLElement, help?: string): HTMLElement {
  return h(
    'vscode-form-group',
    { variant: 'vertical' },
    h('vscode-label', { for: id }, label),
    field,
    help ? h('vscode-form-helper', {}, help) : null,
  );
}

function textarea(id: string, rows: number, placeholder: string): Field {
  return h('vscode-textarea', { id, name: id, rows, placeholder }) as unknown as Field;
}

export class VerdictFormView {
  readonly element: HTMLElement;
  private readonly fields: Record<string, Field>;
  private readonly submitButton: Field;
  private readonly result: HTMLElement;
  private readonly spentBanner: HTMLElement;
  private readonly escalation: HTMLElement;

  constructor(
    verdicts: readonly string[],
    private readonly actions: VerdictFormActions,
  ) {
    this.fields = {
      verdict: select('verdict', verdicts, 'PASS'),
      criticNext: textarea('criticNext', 2, w('The single most valuable next improvement')),
      evidencePaths: textarea('evidencePaths', 2, w('One path per line, e.g. .loop/evidence/suite.txt')),
      decision: select('decision', ['', ...DECISIONS], decisionForVerdict('PASS') ?? ''),
      outcome: select('outcome', OUTCOMES, 'continue'),
      actions: textarea('actions', 2, w('Action ids completed in this iteration, one per line')),
      measurements: textarea('measurements', 2, w('DIM=NUMBER, one per line')),
      note: textarea('note', 2, w('Optional note')),
      blocker: textarea('blocker', 2, w('What blocks the loop')),
      evidence: textarea('evidence', 2, w('What shows it')),
      recommendedNext: textarea('recommendedNext', 2, w('Who should do what next')),
    };
    const f = this.fields;
    this.escalation = h(
      'div',
      { class: 'escalation', hidden: true },
      group(w('Blocker'), 'blocker', f.blocker!),
      group(w('Evidence'), 'evidence', f.evidence!),
      group(w('Recommended next'), 'recommendedNext', f.recommendedNext!),
    );
    // The decision follows the verdict (REVISE → revise, FAIL → revert…) until the person picks one.
    let decisionChosen = false;
    f.decision!.addEventListener('change', () => (decisionChosen = true));
    f.verdict!.addEventListener('change', () => {
      if (!decisionChosen) f.decision!.value = decisionForVerdict(f.verdict!.value) ?? '';
    });
    f.outcome!.addEventListener('change', () => {
      this.escalation.hidden = f.outcome!.value !== 'escalate';
    });
    this.submitButton = h('vscode-button', { id: 'submit-verdict' }, w('Record verdict')) as unknown as Field;
    this.submitButton.addEventListener('click', () => this.onSubmit());
    const exportButton = h('vscode-button', { secondary: true, id: 'export-packet' }, w('Export packet'));
    exportButton.addEventListener('click', () => this.actions.exportPacket());
    this.result = h('div', { class: 'result', role: 'status', 'aria-live': 'polite' });
    this.spentBanner = h('p', { class: 'spent', hidden: true });
    // The section is "verdict-section": the id "verdict" belongs to the select its label names.
    this.element = section(
      'verdict-section',
      w('Verdict'),
      this.spentBanner,
      this.result,
      h(
        'form',
        { class: 'verdict-form', novalidate: true },
        group(w('Verdict'), 'verdict', f.verdict!),
        group(w('Critic next'), 'criticNext', f.criticNext!, w('Required with a verdict.')),
        group(w('Evidence paths'), 'evidencePaths', f.evidencePaths!, w('At least one; one per line.')),
        group(w('Decision'), 'decision', f.decision!),
        group(w('Outcome'), 'outcome', f.outcome!),
        this.escalation,
        group(w('Actions'), 'actions', f.actions!),
        group(w('Measurements'), 'measurements', f.measurements!, w('Scored against the rubric.')),
        group(w('Note'), 'note', f.note!),
        h('div', { class: 'buttons' }, this.submitButton, exportButton),
      ),
    );
    this.element.querySelector('form')?.addEventListener('submit', (event) => event.preventDefault());
  }

  private value(name: string): string {
    return this.fields[name]?.value ?? '';
  }

  private onSubmit(): void {
    if (this.submitButton.disabled) return;
    const escalate = this.value('outcome') === 'escalate';
    this.actions.submit({
      verdict: this.value('verdict') as VerdictForm['verdict'],
      criticNext: this.value('criticNext'),
      evidencePaths: lines(this.value('evidencePaths')),
      decision: (optionalText(this.value('decision')) as VerdictForm['decision']) ?? null,
      outcome: this.value('outcome') as VerdictForm['outcome'],
      actions: lines(this.value('actions')),
      measurements: lines(this.value('measurements')),
      note: optionalText(this.value('note')),
      blocker: escalate ? optionalText(this.value('blocker')) : null,
      evidence: escalate ? optionalText(this.value('evidence')) : null,
      recommendedNext: escalate ? optionalText(this.value('recommendedNext')) : null,
    });
    this.setBusy(true);
  }

  setBusy(busy: boolean): void {
    this.submitButton.disabled = busy;
    this.submitButton.textContent = w(busy ? 'Recording…' : 'Record verdict');
  }

  setEnabled(enabled: boolean): void {
    for (const field of Object.values(this.fields)) field.disabled = !enabled;
    this.submitButton.disabled = !enabled;
  }

  showSpent(spent: PanelState['spent']): void {
    this.spentBanner.hidden = spent === null;
    this.spentBanner.textContent = spent ? w('This brief is spent: {0}', spent.reason) : '';
    if (spent) {
      this.setEnabled(false);
      this.submitButton.textContent = w('Verdict recorded');
    }
    if (spent?.record) this.showRecord(spent.record);
  }

  showRecord(record: RecordView): void {
    const rows = Object.entries(record)
      .filter(([, value]) => value !== null && !(Array.isArray(value) && value.length === 0))
      .map(([key, value]) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, key),
          h('td', {}, typeof value === 'string' ? value : JSON.stringify(value)),
        ),
      );
    this.result.replaceChildren(
      h('h3', {}, w('Recorded as iteration {0}', record.n)),
      h('table', { class: 'record' }, h('tbody', {}, ...rows)),
    );
  }

  showRefusal(exitCode: number, meaning: string, findings: Finding[]): void {
    this.setBusy(false);
    this.result.replaceChildren(
      h('h3', { class: 'refused' }, w('Refused (exit {0}): {1}', exitCode, meaning)),
      h('ul', { class: 'findings' }, ...findings.map((f) => h('li', {}, f.message))),
    );
  }

  showMessage(message: string): void {
    this.setBusy(false);
    this.result.replaceChildren(h('p', {}, message));
  }

  /** An untrusted workspace is read-only: the form stays visible but disabled, and says why. */
  showReadOnly(): void {
    this.setEnabled(false);
    this.spentBanner.hidden = false;
    this.spentBanner.textContent = w(
      'This workspace is not trusted: Loop Ledger is read-only here, so no verdict can be recorded.',
    );
  }
}
