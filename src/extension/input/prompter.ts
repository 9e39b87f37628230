/**
 * The questions a command asks a person, behind one interface so the same command code runs
 * over the real quick input (vscodePrompter.ts) and over scripted answers in integration tests
 * (scriptedPrompter.ts). Nothing here imports `vscode`: the contract is plain data.
 */

/**
 * Returned by a step when the person pressed the Back button. From the global symbol registry:
 * a test bundle carries its own copy of this module, and its ScriptedPrompter's BACK must be
 * the extension's BACK.
 */
export const BACK: unique symbol = Symbol.for('loopLedger.input.back') as never;

/**
 * What one question yields: the answer, BACK (go to the previous step), or undefined when the
 * person cancelled (Escape, focus lost). Commands stop and write nothing on undefined.
 */
export type Answer<T> = T | typeof BACK | undefined;

/** Shared by every question: `id` names the step so scripted answers and logs can refer to it. */
export interface StepInfo {
  /** Stable step name, e.g. 'record.outcome'; scripted answers are matched against it. */
  readonly id: string;
  readonly title: string;
  /** 1-based position in a multi-step flow; shown as "title (2/5)" by the quick input. */
  readonly step?: number;
  readonly totalSteps?: number;
  /** Shows a Back button; pressing it answers BACK. */
  readonly canGoBack?: boolean;
}

export interface PickItem<T> {
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
  readonly value: T;
  /** Pre-selected in a pick-many list (ignored by pick-one). */
  readonly picked?: boolean;
}

export interface PickOneRequest<T> extends StepInfo {
  readonly placeholder?: string;
  readonly items: readonly PickItem<T>[];
  /** Stays open when focus moves elsewhere (a decision the loop waits on). */
  readonly ignoreFocusOut?: boolean;
}

export interface PickManyRequest<T> extends StepInfo {
  readonly placeholder?: string;
  readonly items: readonly PickItem<T>[];
  /** Refuse an empty selection (the quick input keeps asking). */
  readonly requireOne?: boolean;
}

export interface InputTextRequest extends StepInfo {
  readonly prompt: string;
  readonly placeholder?: string;
  /** Prefilled text, e.g. the last reading of a measurement. */
  readonly value?: string;
  /**
   * Returns a message while the text is not acceptable, undefined once it is. May answer with a
   * promise: a check that looks at the disk does so asynchronously, off the extension host's thread.
   */
  readonly validate?: (text: string) => string | undefined | Promise<string | undefined>;
}

export interface ConfirmRequest {
  readonly id: string;
  readonly title: string;
  readonly detail?: string;
  /** Label of the affirmative button, e.g. "Close session". */
  readonly confirmLabel: string;
}

export interface Prompter {
  pickOne<T>(request: PickOneRequest<T>): Promise<Answer<T>>;
  pickMany<T>(request: PickManyRequest<T>): Promise<Answer<T[]>>;
  inputText(request: InputTextRequest): Promise<Answer<string>>;
  /** True when confirmed, false when declined or dismissed. */
  confirm(request: ConfirmRequest): Promise<boolean>;
}
