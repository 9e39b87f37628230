import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { ledgerDir, legacyLedgerDir } from '../../store';
import type { WorkspaceRoot } from '../workspace/roots';
import type { SessionsTreeProvider } from './treeProvider';

/** Half the one-second aim: a missed watcher event still shows within a second. */
export const POLL_INTERVAL_MS = 500;

/**
 * A safety net under the file watcher. VS Code may drop or coalesce file events (a remote host,
 * a ledger folder deleted and re-created while watched), and a ledger the CLI writes must still
 * appear within a second. Every write the store makes is a rename, which changes the folder's
 * mtime; so this stats only the two ledger folders per root, and lists one only when its mtime
 * moved, refreshing the sessions whose file is new, changed or gone.
 */
export function pollLedgerFolders(
  provider: SessionsTreeProvider,
  roots: () => WorkspaceRoot[],
): vscode.Disposable {
  const seen = new Map<string, number>();
  const timer = setInterval(() => {
    for (const root of roots()) {
      for (const dir of [ledgerDir(root.path), legacyLedgerDir(root.path)]) {
        const mtime = mtimeOf(dir);
        const previous = seen.get(dir);
        seen.set(dir, mtime);
        if (previous !== undefined && previous !== mtime) reconcile(provider, root.path, dir);
      }
    }
  }, POLL_INTERVAL_MS);
  timer.unref?.();
  return { dispose: () => clearInterval(timer) };
}

function reconcile(provider: SessionsTreeProvider, root: string, dir: string): void {
  const known = new Map(
    provider
      .sessionNodes()
      .filter((node) => node.root.path === root && node.entry.path.startsWith(dir))
      .map((node) => [node.entry.path, node.mtimeMs]),
  );
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    // The folder is gone: every session read from it is refreshed below.
  }
  for (const name of names) {
    const path = join(dir, name);
    if (known.get(path) !== mtimeOf(path)) provider.refreshFile(path);
    known.delete(path);
  }
  for (const path of known.keys()) provider.refreshFile(path);
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}
