// The questions of "Record Iteration", one step each, with Back (a loop-engineering session
// also gets recordEngineeringStep's). They only gather answers; the
// engine decides (through iterateOp) and refuses what is wrong, so no rule is repeated here.
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

const OUTCOME_HINTS: Record<Outcome, string> = {
  continue: 'another iteration follows (stall checks run)',
  complete: 'the contract is met; closes the loop',
  revise: 'the approach needs rework; closes the loop',
  escalate: 'a person must act; needs blocker, evidence, next step',
  pause: 'stop for now; can be resumed',
  stop: 'give up on this loop; closes it',
};

type DetailKey = 'state' | 'error' | 'dependencyMissing' | 'evidencePaths' | 'note';
const DETAILS: readonly { key: DetailKey; label: string; detail: string }[] = [
  { key: 'state', label: 'State', detail: 'the resulting state (a repeat is the circular-state stall)' },
  {
    key: 'error',
    label: 'Error',
    detail: 'failure text (a repeated error escalates at the stall threshold)',
  },
  {
    key: 'dependencyMissing',
    label: 'Dependency missing',
    detail: 'a declared dependency that was unreachable',
  },
  { key: 'evidencePaths', label: 'Evidence paths', detail: 'artifacts that show the work (comma-separated)' },
  { key: 'note', label: 'Note', detail: 'free text' },
];

const TITLE = 'Loop Ledger: Record Iteration';

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
        await pickSession(prompter(), 'record.session', TITLE, choices(), at),
        (v) => (s.target = v),
      );
    },
    async (s, at) => {
      const items = OUTCOMES.map((outcome) => ({
        label: outcome,
        description: OUTCOME_HINTS[outcome],
        value: outcome,
      }));
      const answer = await prompter().pickOne({
        id: 'record.outcome',
        title: TITLE,
        placeholder: 'Outcome of this iteration',
        items,
        ...at,
      });
      return settle(answer, (v) => (s.outcome = v));
    },
    async (s, at) => {
      const done = s.target!.ledger.completed_actions;
      const answer = await prompter().inputText({
        id: 'record.actions',
        title: TITLE,
        prompt: `Action ids this iteration completed (comma or space separated; may be empty). Completed so far: ${done.length ? done.join(', ') : 'none'}`,
        placeholder: 'e.g. fix-parser add-tests',
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
        title: TITLE,
        placeholder: 'Measurements',
        items: [
          {
            label: 'Record measurements',
            description: `one per rubric dimension (${rubric.length})`,
            value: true,
          },
          { label: 'No measurements', description: 'this iteration is not scored', value: false },
        ],
        ...at,
      });
      if (choice === undefined || choice === BACK) return choice;
      if (!choice) return ((s.measures = []), 'next');
      const last = deriveBaseline(s.target!.ledger);
      const answers = await askEach(rubric, (dim, index) =>
        prompter().inputText({
          id: `record.measure.${dim.dimension}`,
          title: `${TITLE} — ${dim.dimension} (${index + 1}/${rubric.length})`,
          prompt: `${dim.dimension}: ${dim.direction}, target ${dim.target}, failure threshold ${dim.failure_threshold}${dim.hard_gate ? ', hard gate' : ''}. Prefilled with the last reading.`,
          value: last[dim.dimension] === undefined ? '' : String(last[dim.dimension]),
          validate: (text) => (text.trim() === '' ? 'a number is needed for every dimension' : undefined),
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
        title: TITLE,
        placeholder: 'Add details? (select none to skip)',
        items: DETAILS.map((d) => ({
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
    async (s, at) => askEngineeringFacts(prompter, TITLE, s, at),
    async (s, at) =>
      s.outcome === 'escalate' ? askEscalateFields(prompter, 'record', TITLE, s, at) : 'skip',
  ];
}

async function askDetail(prompter: Prompter, s: RecordAnswers, key: DetailKey) {
  const title = `${TITLE} — ${DETAILS.find((d) => d.key === key)!.label}`;
  if (key === 'dependencyMissing') {
    const declared = s.target!.ledger.contract.dependencies;
    if (Array.isArray(declared) && declared.every((d) => typeof d === 'string') && declared.length > 0) {
      const answer = await prompter.pickOne({
        id: 'record.dependencyMissing',
        title,
        placeholder: 'Which declared dependency was unreachable?',
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
    prompt: DETAILS.find((d) => d.key === key)!.detail,
    value: key === 'evidencePaths' ? s.evidencePaths.join(', ') : (s[key] ?? ''),
    canGoBack: true,
  });
  if (answer === undefined || answer === BACK) return answer;
  if (key === 'evidencePaths') s.evidencePaths = splitList(answer, /\s*,\s*/);
  else s[key] = answer;
  return answer;
}
