import * as vscode from 'vscode';
import {
  BACK,
  type Answer,
  type ConfirmRequest,
  type InputTextRequest,
  type PickItem,
  type PickManyRequest,
  type PickOneRequest,
  type Prompter,
  type StepInfo,
} from './prompter';

type ValueItem<T> = vscode.QuickPickItem & { readonly value: T };

/**
 * The Prompter a person sees: createQuickPick / createInputBox (not the show* shortcuts, which
 * cannot show a Back button or a step counter). Each question resolves once: accepted, Back,
 * or hidden (Escape or focus lost → undefined).
 */
export class VscodePrompter implements Prompter {
  pickOne<T>(request: PickOneRequest<T>): Promise<Answer<T>> {
    const pick = vscode.window.createQuickPick<ValueItem<T>>();
    describeStep(pick, request);
    pick.placeholder = request.placeholder;
    pick.items = request.items.map(toQuickPickItem);
    pick.ignoreFocusOut = request.ignoreFocusOut ?? false;
    return ask(pick, (settleWith) => {
      pick.onDidAccept(() => {
        const chosen = pick.selectedItems[0];
        if (chosen) settleWith(chosen.value);
      });
    });
  }

  pickMany<T>(request: PickManyRequest<T>): Promise<Answer<T[]>> {
    const pick = vscode.window.createQuickPick<ValueItem<T>>();
    describeStep(pick, request);
    pick.placeholder = request.placeholder;
    pick.canSelectMany = true;
    const items = request.items.map(toQuickPickItem);
    pick.items = items;
    pick.selectedItems = items.filter((_, index) => request.items[index]!.picked);
    return ask(pick, (settleWith) => {
      pick.onDidAccept(() => {
        const chosen = pick.selectedItems.map((item) => item.value);
        if (request.requireOne && chosen.length === 0) {
          pick.placeholder = vscode.l10n.t('Select at least one item, then press Enter.');
          return;
        }
        settleWith(chosen);
      });
    });
  }

  inputText(request: InputTextRequest): Promise<Answer<string>> {
    const box = vscode.window.createInputBox();
    describeStep(box, request);
    box.prompt = request.prompt;
    box.placeholder = request.placeholder;
    box.value = request.value ?? '';
    const check = async (text: string): Promise<string | undefined> => request.validate?.(text);
    // An asynchronous check may answer after the text changed again: only the answer for the
    // text still in the box is shown, and Enter settles only on the text it checked.
    const show = (text: string): void =>
      void check(text).then((problem) => {
        if (box.value === text) box.validationMessage = problem;
      });
    if (box.value !== '') show(box.value);
    return ask(box, (settleWith) => {
      box.onDidChangeValue(show);
      box.onDidAccept(async () => {
        const text = box.value;
        const problem = await check(text);
        if (box.value !== text) return;
        box.validationMessage = problem;
        if (problem === undefined) settleWith(text);
      });
    });
  }

  async confirm(request: ConfirmRequest): Promise<boolean> {
    const chosen = await vscode.window.showWarningMessage(
      request.title,
      { modal: true, detail: request.detail },
      request.confirmLabel,
    );
    return chosen === request.confirmLabel;
  }
}

function toQuickPickItem<T>(item: PickItem<T>): ValueItem<T> {
  return { label: item.label, description: item.description, detail: item.detail, value: item.value };
}

function describeStep(
  input: vscode.QuickInput & { buttons: readonly vscode.QuickInputButton[] },
  info: StepInfo,
): void {
  input.title = info.title;
  input.step = info.step;
  input.totalSteps = info.totalSteps;
  input.ignoreFocusOut = true;
  input.buttons = info.canGoBack ? [vscode.QuickInputButtons.Back] : [];
}

/** What quick picks and input boxes share that `ask` needs. */
interface AskableInput {
  readonly onDidTriggerButton: vscode.Event<vscode.QuickInputButton>;
  readonly onDidHide: vscode.Event<void>;
  show(): void;
  dispose(): void;
}

/**
 * Shows `input` and resolves with the first of: the value handed to `settleWith`, BACK when the
 * Back button is pressed, undefined when the input is hidden. Disposes the input either way.
 */
function ask<T>(input: AskableInput, wire: (settleWith: (value: T) => void) => void): Promise<Answer<T>> {
  return new Promise<Answer<T>>((resolve) => {
    let settled = false;
    const finish = (answer: Answer<T>): void => {
      if (settled) return;
      settled = true;
      resolve(answer);
      input.dispose();
    };
    wire((value) => finish(value));
    input.onDidTriggerButton((button) => {
      if (button === vscode.QuickInputButtons.Back) finish(BACK);
    });
    input.onDidHide(() => finish(undefined));
    input.show();
  });
}
