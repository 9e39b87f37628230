// The escalate step shared by Record Iteration and Close Session: an escalate needs a blocker,
// its evidence and a recommended next action, asked one after another with Back between them.
import { askEach, BACK, settle, type Prompter, type StepPosition, type StepResult } from '../input';

export interface EscalateAnswers {
  blocker?: string;
  evidence?: string;
  recommendedNext?: string;
}

const FIELDS = [
  ['blocker', 'What stopped the loop?'],
  ['evidence', 'What shows the blocker?'],
  ['recommendedNext', 'What should the next session (or person) do?'],
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
      title: `${title} — escalate (${index + 1}/${FIELDS.length})`,
      prompt,
      value: state[key] ?? '',
      // The engine refuses a blank one too; saying so here saves a round trip.
      validate: (text) => (text.trim() === '' ? 'escalate needs this field' : undefined),
      canGoBack: true,
      step: at.step,
      totalSteps: at.totalSteps,
    }),
  );
  if (answers === BACK) return BACK;
  return settle(answers, (values) => FIELDS.forEach(([key], i) => (state[key] = values[i])));
}
