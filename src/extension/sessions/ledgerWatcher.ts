import * as vscode from 'vscode';

/**
 * Ledger files relative to each workspace folder: Loop Ledger's own and the original engine's.
 * Anchored to the folder (RelativePattern), never `**`: VS Code then watches two folders, not
 * the whole tree recursively.
 */
export const LEDGER_GLOBS = ['.loop/ledgers/*.json', '.claude/.runtime/work-loop/*.json'] as const;

/**
 * Short enough that a CLI write from a terminal shows within a second, long enough to fold the
 * create + change pair an atomic rename produces into one re-read.
 */
export const LEDGER_DEBOUNCE_MS = 75;

/**
 * Calls `onLedgerChanged(path)` once per changed ledger file, debounced per path, for files the
 * CLI (or anything else) creates, rewrites or deletes. Lock and temporary files do not end in
 * `.json`, so they never match.
 */
export function watchLedgers(
  folders: readonly vscode.WorkspaceFolder[],
  onLedgerChanged: (path: string) => void,
): vscode.Disposable {
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  const schedule = (uri: vscode.Uri): void => {
    if (uri.scheme !== 'file') return;
    const path = uri.fsPath;
    clearTimeout(pending.get(path));
    pending.set(
      path,
      setTimeout(() => {
        pending.delete(path);
        onLedgerChanged(path);
      }, LEDGER_DEBOUNCE_MS),
    );
  };
  const disposables: vscode.Disposable[] = [];
  for (const folder of folders.filter((f) => f.uri.scheme === 'file')) {
    for (const glob of LEDGER_GLOBS) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob));
      disposables.push(
        watcher,
        watcher.onDidCreate(schedule),
        watcher.onDidChange(schedule),
        watcher.onDidDelete(schedule),
      );
    }
  }
  disposables.push({ dispose: () => pending.forEach((timer) => clearTimeout(timer)) });
  return vscode.Disposable.from(...disposables);
}
