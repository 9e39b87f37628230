// The escalate step shared by Record Iteration and Close Session: an escalate needs a blocker,
// its evidence and a recommended next action, asked one after another with Back between them.
import * as l10n from '@vscode/l10n';
import { askEach, BACK, settle, type Prompter, type StepPosition, type StepResult } from '../input';

export interface EscalateAnswers {
  blocker?: string;
  evidence?: string;
  recommendedNext?: string;
}

const FIELDS = [
  ['blocker', () => l10n.t('What stopped the loop?')],
  ['evidence', () => l10n.t('What shows the blocker?')],
  ['recommendedNext', () => l10n.t('What should the next session (or person) do?')],
] as const;

export async function askEscalateFields(
  prompter: () => Prompter,
  idPrefix: string,
  title: string,
  state: EscalateAnswers,
  at: StepPosition,
): Promise<StepResult> {
  const answers = await askEach(FIELDS, ([key, prompt], index) =>
    prompter().inputText({
      id: `${idPrefix}.${key}`,
      title: l10n.t('{0} — escalate ({1}/{2})', title, index + 1, FIELDS.length),
      prompt: prompt(),
      value: state[key] ?? '',
      // The engine refuses a blank one too; saying so here saves a round trip.
      validate: (text) => (text.trim() === '' ? l10n.t('escalate needs this field') : undefined),
      canGoBack: true,
      step: at.step,
      totalSteps: at.totalSteps,
    }),
  );
  if (answers === BACK) return BACK;
  return settle(answers, (values) => FIELDS.forEach(([key], i) => (state[key] = values[i])));
}
