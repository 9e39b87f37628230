import type * as vscode from 'vscode';
import type { Prompter } from './prompter';

/**
 * Holds the Prompter every command asks through. Commands read `current` at the moment they
 * ask, so an integration test can swap in a ScriptedPrompter (through the API `activate`
 * returns) and the command code path is otherwise the real one.
 */
export class PrompterSlot {
  private active: Prompter;

  constructor(private readonly standard: Prompter) {
    this.active = standard;
  }

  get current(): Prompter {
    return this.active;
  }

  /** Uses `prompter` until the returned disposable is disposed, then the standard one again. */
  use(prompter: Prompter): vscode.Disposable {
    this.active = prompter;
    return {
      dispose: () => {
        if (this.active === prompter) this.active = this.standard;
      },
    };
  }
}
