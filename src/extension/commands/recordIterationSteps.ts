// The questions of "Record Iteration", one step each, with Back (a loop-engineering session
// also gets recordEngineeringStep's). They only gather answers; the
// engine decides (through iterateOp) and refuses what is wrong, so no rule is repeated here.
import * as l10n from '@vscode/l10n';
import { deriveBaseline } from '../../engine/baseline';
import { OUTCOMES, type Outcome } from '../../engine/types';
import { askEach, BACK, settle, type Prompter, type Step } from '../input';
import type { ReadableSession } from '../sessions/sessionEntry';
import { askEscalateFields } from './escalateStep';
import { askEngineeringFacts, type EngineeringAnswers } from './recordEngineeringStep';
import { pickSession } from './target';

export interface RecordAnswers extends EngineeringAnswers {
  target?: ReadableSession;
  outcome?: Outcome;
  actions: string[];
  measures: string[];
  details: DetailKey[];
  state?: string;
  error?: string;
  dependencyMissing?: string;
  evidencePaths: string[];
  note?: string;
  blocker?: string;
  evidence?: string;
  recommendedNext?: string;
}

const OUTCOME_HINTS = (): Record<Outcome, string> => ({
  continue: l10n.t('another iteration follows (stall checks run)'),
  complete: l10n.t('the contract is met; closes the loop'),
  revise: l10n.t('the approach needs rework; closes the loop'),
  escalate: l10n.t('a person must act; needs blocker, evidence, next step'),
  pause: l10n.t('stop for now; can be resumed'),
  stop: l10n.t('give up on this loop; closes it'),
});

type DetailKey = 'state' | 'error' | 'dependencyMissing' | 'evidencePaths' | 'note';
const DETAILS = (): readonly { key: DetailKey; label: string; detail: string }[] => [
  {
    key: 'state',
    label: l10n.t('State'),
    detail: l10n.t('the resulting state (a repeat is the circular-state stall)'),
  },
  {
    key: 'error',
    label: l10n.t('Error'),
    detail: l10n.t('failure text (a repeated error escalates at the stall threshold)'),
  },
  {
    key: 'dependencyMissing',
    label: l10n.t('Dependency missing'),
    detail: l10n.t('a declared dependency that was unreachable'),
  },
  {
    key: 'evidencePaths',
    label: l10n.t('Evidence paths'),
    detail: l10n.t('artifacts that show the work (comma-separated)'),
  },
  { key: 'note', label: l10n.t('Note'), detail: l10n.t('free text') },
];

const TITLE = (): string => l10n.t('Loop Ledger: Record Iteration');

/** Splits "a, b c" into ids; the engine keeps them as given. */
export function splitList(text: string, separators = /[\s,]+/): string[] {
  return text
    .split(separators)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

export function recordSteps(
  prompter: () => Prompter,
  choices: () => readonly ReadableSession[],
  given: ReadableSession | undefined,
): Step<RecordAnswers>[] {
  return [
    async (s, at) => {
      if (given) return ((s.target = given), 'skip');
      return settle(
        await pickSession(prompter(), 'record.session', TITLE(), choices(), at),
        (v) => (s.target = v),
      );
    },
    async (s, at) => {
      const items = OUTCOMES.map((outcome) => ({
        label: outcome,
        description: OUTCOME_HINTS()[outcome],
        value: outcome,
      }));
      const answer = await prompter().pickOne({
        id: 'record.outcome',
        title: TITLE(),
        placeholder: l10n.t('Outcome of this iteration'),
        items,
        ...at,
      });
      return settle(answer, (v) => (s.outcome = v));
    },
    async (s, at) => {
      const done = s.target!.ledger.completed_actions;
      const answer = await prompter().inputText({
        id: 'record.actions',
        title: TITLE(),
        prompt: l10n.t(
          'Action ids this iteration completed (comma or space separated; may be empty). Completed so far: {0}',
          done.length ? done.join(', ') : l10n.t('none'),
        ),
        placeholder: l10n.t('e.g. fix-parser add-tests'),
        value: s.actions.join(' '),
        ...at,
      });
      return settle(answer, (v) => (s.actions = splitList(v)));
    },
    async (s, at) => {
      const rubric = s.target!.ledger.contract.quality_rubric ?? [];
      if (rubric.length === 0) return ((s.measures = []), 'skip');
      const choice = await prompter().pickOne({
        id: 'record.measure',
        title: TITLE(),
        placeholder: l10n.t('Measurements'),
        items: [
          {
            label: l10n.t('Record measurements'),
            description: l10n.t('one per rubric dimension ({0})', rubric.length),
            value: true,
          },
          {
            label: l10n.t('No measurements'),
            description: l10n.t('this iteration is not scored'),
            value: false,
          },
        ],
        ...at,
      });
      if (choice === undefined || choice === BACK) return choice;
      if (!choice) return ((s.measures = []), 'next');
      const last = deriveBaseline(s.target!.ledger);
      const answers = await askEach(rubric, (dim, index) =>
        prompter().inputText({
          id: `record.measure.${dim.dimension}`,
          title: l10n.t('{0} — {1} ({2}/{3})', TITLE(), dim.dimension, index + 1, rubric.length),
          prompt: l10n.t(
            '{0}: {1}, target {2}, failure threshold {3}{4}. Prefilled with the last reading.',
            dim.dimension,
            dim.direction,
            dim.target,
            dim.failure_threshold,
            dim.hard_gate ? l10n.t(', hard gate') : '',
          ),
          value: last[dim.dimension] === undefined ? '' : String(last[dim.dimension]),
          validate: (text) =>
            text.trim() === '' ? l10n.t('a number is needed for every dimension') : undefined,
          canGoBack: true,
        }),
      );
      // Back from the first dimension returns to the measure/no-measure choice.
      if (answers === BACK) return BACK;
      return settle(
        answers,
        (values) => (s.measures = values.map((v, i) => `${rubric[i]!.dimension}=${v.trim()}`)),
      );
    },
    async (s, at) => {
      const answer = await prompter().pickMany({
        id: 'record.details',
        title: TITLE(),
        placeholder: l10n.t('Add details? (select none to skip)'),
        items: DETAILS().map((d) => ({
          label: d.label,
          description: d.detail,
          value: d.key,
          picked: s.details.includes(d.key),
        })),
        ...at,
      });
      if (answer === undefined || answer === BACK) return answer;
      s.details = answer;
      const values = await askEach(answer, (key) => askDetail(prompter(), s, key));
      if (values === BACK) return BACK;
      return settle(values, () => undefined);
    },
    async (s, at) => askEngineeringFacts(prompter, TITLE(), s, at),
    async (s, at) =>
      s.outcome === 'escalate' ? askEscalateFields(prompter, 'record', TITLE(), s, at) : 'skip',
  ];
}

async function askDetail(prompter: Prompter, s: RecordAnswers, key: DetailKey) {
  const title = l10n.t('{0} — {1}', TITLE(), DETAILS().find((d) => d.key === key)!.label);
  if (key === 'dependencyMissing') {
    const declared = s.target!.ledger.contract.dependencies;
    if (Array.isArray(declared) && declared.every((d) => typeof d === 'string') && declared.length > 0) {
      const answer = await prompter.pickOne({
        id: 'record.dependencyMissing',
        title,
        placeholder: l10n.t('Which declared dependency was unreachable?'),
        items: declared.map((d: string) => ({ label: d, value: d })),
        canGoBack: true,
      });
      if (answer !== undefined && answer !== BACK) s.dependencyMissing = answer;
      return answer;
    }
  }
  const answer = await prompter.inputText({
    id: `record.${key}`,
    title,
    prompt: DETAILS().find((d) => d.key === key)!.detail,
    value: key === 'evidencePaths' ? s.evidencePaths.join(', ') : (s[key] ?? ''),
    canGoBack: true,
  });
  if (answer === undefined || answer === BACK) return answer;
  if (key === 'evidencePaths') s.evidencePaths = splitList(answer, /\s*,\s*/);
  else s[key] = answer;
  return answer;
}
