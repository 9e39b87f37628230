// The window's commands that work on the ledger files only (Repeat, Open Engineering Loop, the
// checkpoints, Run Queue) cannot follow the window onto a PostgreSQL store (Run Loop, the brief
// panel and the language-model tools can: they record into the store). While one is in use they refuse up front, in one sentence naming the
// store (never its password), as the CLI refuses them with a store selected: otherwise they would
// fail on a ledger file that does not exist, or write a file ledger nobody reads.
import * as vscode from 'vscode';
import { STORE_SETTING } from './storeConfig';

/** The `when` context key that is true while the window reads and writes a store. */
export const STORE_IN_USE_CONTEXT = 'loopLedger.storeInUse';

export interface FilesOnlyGate {
  /** The refusal for the command titled `action` while a store is in use; undefined on the files. */
  filesOnlyRefusal(action: string): string | undefined;
}

/** The sentence for `action` on the store `store` (`host:port/database`). */
export function filesOnlyMessage(action: string, store: string): string {
  return vscode.l10n.t(
    'Loop Ledger: {0} works on the ledger files only; this window uses the PostgreSQL store {1}. Unset {2} to use it here.',
    action,
    store,
    STORE_SETTING,
  );
}

/** For a command: the refusal shown (and logged), or undefined when the command may go on. */
export function refuseOnStore(
  gate: FilesOnlyGate,
  action: string,
  output?: vscode.OutputChannel,
): string | undefined {
  const message = gate.filesOnlyRefusal(action);
  if (message === undefined) return undefined;
  output?.appendLine(message);
  void vscode.window.showWarningMessage(message);
  return message;
}
