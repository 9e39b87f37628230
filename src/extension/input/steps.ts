import { BACK, type Answer } from './prompter';

/**
 * One step of a multi-step flow: it asks its question(s), stores the answer on `state`, and
 * returns what to do next. 'next' moves on, 'skip' moves on without having asked anything
 * (so Back from the following step jumps over it too), BACK returns to the previous step that
 * asked, undefined cancels the flow.
 */
export type Step<S> = (state: S, position: StepPosition) => Promise<StepResult>;
export type StepResult = 'next' | 'skip' | typeof BACK | undefined;

/** Where a step sits, so it can label itself "(k/n)" and show a Back button when k > 1. */
export interface StepPosition {
  readonly step: number;
  readonly totalSteps: number;
  readonly canGoBack: boolean;
}

/**
 * Runs `steps` in order with Back navigation. Returns true when every step completed and false
 * when the person cancelled. Steps that were skipped are not revisited by Back.
 */
export async function runSteps<S>(state: S, steps: readonly Step<S>[]): Promise<boolean> {
  const asked: number[] = [];
  let index = 0;
  while (index < steps.length) {
    const position = { step: index + 1, totalSteps: steps.length, canGoBack: asked.length > 0 };
    const result = await steps[index]!(state, position);
    if (result === undefined) return false;
    if (result === BACK) {
      const previous = asked.pop();
      // Back on the first asking step behaves as "stay here": there is nothing before it.
      index = previous ?? index;
      continue;
    }
    if (result === 'next') asked.push(index);
    index += 1;
  }
  return true;
}

/** Turns an answer into a step result, storing the value with `store` when there is one. */
export function settle<T>(answer: Answer<T>, store: (value: T) => void): StepResult {
  if (answer === undefined) return undefined;
  if (answer === BACK) return BACK;
  store(answer as T);
  return 'next';
}

/**
 * Asks one question per item in order, with Back moving to the previous item; Back on the first
 * item returns BACK to the enclosing flow. Returns the answers, or undefined when cancelled.
 */
export async function askEach<I, A>(
  items: readonly I[],
  ask: (item: I, index: number) => Promise<Answer<A>>,
): Promise<A[] | typeof BACK | undefined> {
  const answers: A[] = [];
  let index = 0;
  while (index < items.length) {
    const answer = await ask(items[index]!, index);
    if (answer === undefined) return undefined;
    if (answer === BACK) {
      if (index === 0) return BACK;
      index -= 1;
      answers.length = index;
      continue;
    }
    answers[index] = answer as A;
    index += 1;
  }
  return answers;
}
