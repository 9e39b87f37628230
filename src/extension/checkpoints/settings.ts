// The checkpoint settings Run Loop and Repeat pass on: whether each iteration takes one
// (`loopLedger.checkpoints.enabled`, as `--no-checkpoint` when off) and the size cap
// (`loopLedger.checkpoints.maxFileSizeMB`). Read per workspace folder, at the start of each run.
import * as vscode from 'vscode';

export interface CheckpointSettings {
  checkpoint: boolean;
  /** Undefined when unset or not a positive number: the CLI's default applies. */
  checkpointMaxFileMB?: number;
}

export function checkpointSettings(root: string): CheckpointSettings {
  const config = vscode.workspace.getConfiguration('loopLedger.checkpoints', vscode.Uri.file(root));
  const cap = config.get<unknown>('maxFileSizeMB');
  return {
    checkpoint: config.get<boolean>('enabled') !== false,
    ...(typeof cap === 'number' && Number.isFinite(cap) && cap > 0 ? { checkpointMaxFileMB: cap } : {}),
  };
}
