// Where ledgers live. Every path built from a session id is checked twice: the id itself
// (session-id.ts) and the resolved result, so a future change to the id rule cannot silently
// let a path escape its folder.
import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { InvalidSessionIdError, sessionIdProblem } from './session-id';

/** `<root>/.loop/ledgers`, absolute. */
export function ledgerDir(root: string): string {
  return resolve(root, '.loop', 'ledgers');
}

/** The folder the original work-loop engine wrote to, read by `list` and the extension. */
export function legacyLedgerDir(root: string): string {
  return resolve(root, '.claude', '.runtime', 'work-loop');
}

/** `<root>/.loop/ledgers/<session>.json`; throws InvalidSessionIdError for a bad id. */
export function ledgerPath(root: string, session: string): string {
  return fileInside(ledgerDir(root), session);
}

/** `<root>/.claude/.runtime/work-loop/<session>.json`; throws InvalidSessionIdError for a bad id. */
export function legacyLedgerPath(root: string, session: string): string {
  return fileInside(legacyLedgerDir(root), session);
}

function fileInside(dir: string, session: string): string {
  const problem = sessionIdProblem(session);
  if (problem !== null) throw new InvalidSessionIdError(problem);
  const name = `${session}.json`;
  const path = join(dir, name);
  if (dirname(path) !== dir || basename(path) !== name) {
    throw new InvalidSessionIdError(`session id ${JSON.stringify(session)} would leave ${dir}`);
  }
  return path;
}

/**
 * Null when writing `target` stays under the real path of `root`; else a one-line reason. A
 * cloned repository can carry `.loop` or `.loop/ledgers` as a symlink to a folder elsewhere,
 * and a write through it (a ledger, its lock, `open --force`'s kept copy) would land outside
 * the workspace. The folders that do not exist yet are created by us, as real folders.
 */
export function writeTargetOutsideRoot(root: string, target: string): string | null {
  const where = folderOutsideRoot(root, target);
  if (where === null || typeof where === 'string') return where;
  return `the ledger folder ${dirname(target)} leads to ${where.resolved}, outside the workspace root's real path ${where.realRoot}; Loop Ledger writes only under the root (is .loop or .loop/ledgers a symbolic link?)`;
}

/**
 * Null when the folder of `target` resolves under the real path of `root`; a one-line reason
 * when a missing folder on the way is a dangling link; else where it leads. Shared by every
 * writer that confines its files (see confine.ts).
 */
export function folderOutsideRoot(
  root: string,
  target: string,
): null | string | { resolved: string; realRoot: string } {
  let realRoot: string;
  try {
    realRoot = realpathSync(resolve(root));
  } catch {
    return null; // no root yet: everything below it will be made by us
  }
  const missing: string[] = [];
  let dir = dirname(resolve(target));
  let real: string;
  for (;;) {
    try {
      real = realpathSync(dir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return null; // the write will say why
      if (isSymlink(dir))
        return `${dir} is a symbolic link to a missing folder; Loop Ledger writes only under the workspace root's real path ${realRoot}`;
      missing.unshift(basename(dir));
      const up = dirname(dir);
      if (up === dir) return null;
      dir = up;
    }
  }
  const resolved = join(real, ...missing);
  if (resolved === realRoot || resolved.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep))
    return null;
  return { resolved, realRoot };
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
