import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { ledgerDir, legacyLedgerDir } from '../../store';
import type { WorkspaceRoot } from '../workspace/roots';
import type { SessionsTreeProvider } from './treeProvider';

/** Half the one-second aim: a missed watcher event still shows within a second. */
export const POLL_INTERVAL_MS = 500;

export interface LedgerPoller extends vscode.Disposable {
  /**
   * Re-decides whether to poll: only while the view is visible and a ledger folder exists in a
   * root. Call it when the view's visibility changes, folders change, or a ledger event arrives.
   */
  update(viewVisible: boolean): Promise<void>;
  /** True while the timer runs (tests and the activation report read it). */
  readonly running: boolean;
}

/**
 * A safety net under the file watcher. VS Code may drop or coalesce file events (a remote host,
 * a ledger folder deleted and re-created while watched), and a ledger the CLI writes must still
 * appear within a second. Every write the store makes is a rename, which changes the folder's
 * mtime; so this stats only the two ledger folders per root (asynchronously), and lists one only
 * when its mtime moved, refreshing the sessions whose file is new, changed or gone. It runs only
 * while someone can see the result: a hidden view, or a workspace without ledgers, costs nothing.
 */
export function pollLedgerFolders(
  provider: SessionsTreeProvider,
  roots: () => WorkspaceRoot[],
): LedgerPoller {
  const seen = new Map<string, number>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let ticking = false;
  let starting = false;
  let visible = false;
  let disposed = false;

  const folders = () => roots().flatMap((root) => [ledgerDir(root.path), legacyLedgerDir(root.path)]);

  /**
   * `catchUp`: the first tick after the poll starts compares every ledger with the tree, not only
   * folders whose mtime moves later — a write that landed while the view was hidden (or before
   * the poll's first look) and whose watcher event never came would otherwise stay unseen.
   */
  const tick = async (catchUp = false): Promise<void> => {
    if (ticking) return; // a slow disk: never stack ticks
    ticking = true;
    try {
      let anyFolder = false;
      for (const root of roots()) {
        for (const dir of [ledgerDir(root.path), legacyLedgerDir(root.path)]) {
          const mtime = await mtimeOf(dir);
          if (mtime !== -1) anyFolder = true;
          const previous = seen.get(dir);
          seen.set(dir, mtime);
          const moved = previous !== undefined && previous !== mtime;
          if (moved || (catchUp && mtime !== -1 && provider.loaded))
            await reconcile(provider, root.path, dir);
        }
      }
      if (!anyFolder) stop(); // the ledger folders are gone: the watcher reports a new one
    } finally {
      ticking = false;
    }
  };

  const stop = (): void => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };

  return {
    get running() {
      return timer !== undefined;
    },
    async update(viewVisible: boolean): Promise<void> {
      if (disposed) return;
      visible = viewVisible;
      if (!viewVisible) return stop();
      if (timer !== undefined || starting) return;
      starting = true; // two calls in flight must not start two timers
      try {
        const exists = await Promise.all(folders().map(async (dir) => (await mtimeOf(dir)) !== -1));
        if (disposed || !exists.some(Boolean)) return;
        seen.clear();
        await tick(true); // the baseline mtimes, and whatever the tree missed meanwhile
        if (disposed || !visible) return; // hidden again meanwhile
        timer = setInterval(() => void tick(), POLL_INTERVAL_MS);
        timer.unref?.();
      } finally {
        starting = false;
      }
    },
    dispose(): void {
      disposed = true;
      stop();
    },
  };
}

async function reconcile(provider: SessionsTreeProvider, root: string, dir: string): Promise<void> {
  const known = new Map(
    provider
      .sessionNodes()
      .filter((node) => node.root.path === root && node.entry.path.startsWith(dir))
      .map((node) => [node.entry.path, node.mtimeMs]),
  );
  let names: string[] = [];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.json'));
  } catch {
    // The folder is gone: every session read from it is refreshed below.
  }
  for (const name of names) {
    const path = join(dir, name);
    if (known.get(path) !== (await mtimeOf(path))) void provider.refreshFile(path);
    known.delete(path);
  }
  for (const path of known.keys()) void provider.refreshFile(path);
}

async function mtimeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return -1;
  }
}
