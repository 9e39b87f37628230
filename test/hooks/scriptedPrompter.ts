import {
  BACK,
  type Answer,
  type ConfirmRequest,
  type InputTextRequest,
  type PickManyRequest,
  type PickOneRequest,
  type Prompter,
} from '../../src/extension/input/prompter';

/**
 * A scripted answer to one question, matched by step id in order. For picks, answers name items
 * by label (so the command's own item values are returned, exactly as a click would); 'back'
 * presses Back and 'cancel' dismisses the question.
 */
export type ScriptedAnswer =
  | { readonly step: string; readonly pick: string }
  | { readonly step: string; readonly pickMany: readonly string[] }
  | { readonly step: string; readonly text: string }
  | { readonly step: string; readonly confirm: boolean }
  | { readonly step: string; readonly back: true }
  | { readonly step: string; readonly cancel: true };

/** What was asked, recorded so tests can check prompts, prefilled values and offered items. */
export interface AskedQuestion {
  readonly kind: 'pickOne' | 'pickMany' | 'inputText' | 'confirm';
  readonly id: string;
  readonly title: string;
  readonly items?: readonly { label: string; description?: string; picked?: boolean }[];
  readonly value?: string;
  readonly step?: number;
  readonly totalSteps?: number;
}

/**
 * A Prompter for integration tests: answers come from a script instead of a person. A question
 * the script does not expect (wrong step id, or the script ran out) throws, so a test fails
 * loudly rather than hanging. Text answers go through the request's own validation, so an
 * invalid scripted value fails the same way a person would be stopped.
 */
export class ScriptedPrompter implements Prompter {
  readonly asked: AskedQuestion[] = [];
  private readonly script: ScriptedAnswer[];

  constructor(script: readonly ScriptedAnswer[]) {
    this.script = [...script];
  }

  /** Answers not consumed yet; a finished test expects none. */
  get remaining(): readonly ScriptedAnswer[] {
    return this.script;
  }

  async pickOne<T>(request: PickOneRequest<T>): Promise<Answer<T>> {
    this.asked.push({ kind: 'pickOne', ...describe(request), items: request.items.map(itemView) });
    const answer = this.next(request.id);
    if ('back' in answer) return BACK;
    if ('cancel' in answer) return undefined;
    if (!('pick' in answer)) throw unexpected(request.id, answer, 'pick');
    const item = request.items.find((candidate) => candidate.label === answer.pick);
    if (!item) throw new Error(`step ${request.id}: no item labelled "${answer.pick}" in ${labels(request)}`);
    return item.value;
  }

  async pickMany<T>(request: PickManyRequest<T>): Promise<Answer<T[]>> {
    this.asked.push({ kind: 'pickMany', ...describe(request), items: request.items.map(itemView) });
    const answer = this.next(request.id);
    if ('back' in answer) return BACK;
    if ('cancel' in answer) return undefined;
    if (!('pickMany' in answer)) throw unexpected(request.id, answer, 'pickMany');
    return answer.pickMany.map((label) => {
      const item = request.items.find((candidate) => candidate.label === label);
      if (!item) throw new Error(`step ${request.id}: no item labelled "${label}" in ${labels(request)}`);
      return item.value;
    });
  }

  async inputText(request: InputTextRequest): Promise<Answer<string>> {
    this.asked.push({ kind: 'inputText', ...describe(request), value: request.value });
    const answer = this.next(request.id);
    if ('back' in answer) return BACK;
    if ('cancel' in answer) return undefined;
    if (!('text' in answer)) throw unexpected(request.id, answer, 'text');
    const problem = await request.validate?.(answer.text);
    if (problem !== undefined) throw new Error(`step ${request.id}: "${answer.text}" refused: ${problem}`);
    return answer.text;
  }

  async confirm(request: ConfirmRequest): Promise<boolean> {
    this.asked.push({ kind: 'confirm', id: request.id, title: request.title });
    const answer = this.next(request.id);
    if ('cancel' in answer) return false;
    if (!('confirm' in answer)) throw unexpected(request.id, answer, 'confirm');
    return answer.confirm;
  }

  private next(step: string): ScriptedAnswer {
    const answer = this.script.shift();
    if (!answer) throw new Error(`step ${step}: asked, but the script has no answers left`);
    if (answer.step !== step) throw new Error(`step ${step}: asked, but the script expected ${answer.step}`);
    return answer;
  }
}

function describe(request: PickOneRequest<unknown> | InputTextRequest): Omit<AskedQuestion, 'kind'> {
  return { id: request.id, title: request.title, step: request.step, totalSteps: request.totalSteps };
}

function itemView(item: { label: string; description?: string; picked?: boolean }) {
  return { label: item.label, description: item.description, picked: item.picked };
}

function labels(request: { items: readonly { label: string }[] }): string {
  return request.items.map((item) => `"${item.label}"`).join(', ');
}

function unexpected(step: string, answer: ScriptedAnswer, wanted: string): Error {
  return new Error(`step ${step}: wanted a ${wanted} answer, the script has ${JSON.stringify(answer)}`);
}
