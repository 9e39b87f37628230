import * as vscode from 'vscode';

/**
 * Whether Loop Ledger may write here. In an untrusted workspace the tree, status and score
 * still work, but nothing is written: ledgers are records a person signs off, and an untrusted
 * folder's files should not be changed by merely opening it.
 */
export class TrustGate {
  /**
   * `workspaceTrusted` is VS Code's own answer; only the integration tests' entry (loaded in
   * extension test mode, see testing/testHooks.ts) passes another, to reach the untrusted path
   * in a harness that runs with trust disabled. The e2e tier also runs a really untrusted window.
   */
  constructor(private readonly workspaceTrusted: () => boolean = () => vscode.workspace.isTrusted) {}

  get isTrusted(): boolean {
    return this.workspaceTrusted();
  }

  /** The sentence a refused write shows. */
  static refusal(action: string): string {
    return vscode.l10n.t(
      'Loop Ledger: {0} writes to the ledger, and this workspace is not trusted. Loop Ledger is read-only here (the tree, Show Status and Score still work); trust the workspace to record.',
      action,
    );
  }
}
