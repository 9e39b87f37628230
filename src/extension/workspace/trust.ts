import * as vscode from 'vscode';

/**
 * Whether Loop Ledger may write here. In an untrusted workspace the tree, status and score
 * still work, but nothing is written: ledgers are records a person signs off, and an untrusted
 * folder's files should not be changed by merely opening it.
 */
export class TrustGate {
  private simulatedUntrusted = false;

  get isTrusted(): boolean {
    return vscode.workspace.isTrusted && !this.simulatedUntrusted;
  }

  /**
   * Tests run with workspace trust disabled (the harness passes --disable-workspace-trust), so
   * they reach the untrusted path through this switch. Returns a disposable that undoes it.
   */
  simulateUntrusted(): vscode.Disposable {
    this.simulatedUntrusted = true;
    return { dispose: () => (this.simulatedUntrusted = false) };
  }

  /** The sentence a refused write shows. */
  static refusal(action: string): string {
    return (
      `Loop Ledger: ${action} writes to the ledger, and this workspace is not trusted. ` +
      'Loop Ledger is read-only here (the tree, Show Status and Score still work); trust the workspace to record.'
    );
  }
}
