// The worktree facts and the one removal crash recovery needs: which files are untracked (git's
// own ignore rules applied), which paths make the tree dirty, and removing the files the engine
// named as a crashed build's leftovers. The rule of what to remove lives in the engine; this file
// only reads git and unlinks, never following a link and never leaving the worktree.
import { lstatSync, realpathSync, unlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { git } from './git';

function nulPaths(stdout: string): string[] {
  return stdout.split('\0').filter((p) => p.length > 0);
}

/** Untracked files, git-ignored ones excluded; undefined when git cannot say. */
export function untrackedFiles(cwd: string): string[] | undefined {
  const r = git(cwd, ['-c', 'core.quotePath=false', 'ls-files', '-z', '--others', '--exclude-standard']);
  return r.code === 0 ? nulPaths(r.stdout) : undefined;
}

/** Every changed path (staged, unstaged, untracked and not ignored); undefined when git cannot say. */
export function changedFiles(cwd: string): string[] | undefined {
  const r = git(cwd, [
    '-c',
    'core.quotePath=false',
    'status',
    '--porcelain=v1',
    '-z',
    '--no-renames',
    '--untracked-files=all',
  ]);
  if (r.code !== 0) return undefined;
  return [...new Set(nulPaths(r.stdout).map((entry) => entry.slice(3)))];
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/**
 * Unlinks each named file (a regular file or a symlink itself, never what it points to) when its
 * real folder lies inside the worktree. Returns the paths removed; a path that is gone already,
 * is a folder, or escapes through a linked folder is left alone.
 */
export function removeFiles(worktree: string, paths: readonly string[]): string[] {
  let root: string;
  try {
    root = realpathSync(worktree);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const rel of paths) {
    const full = join(root, rel);
    try {
      if (!inside(root, full) || !inside(root, join(realpathSync(dirname(full)), 'x'))) continue;
      const kind = lstatSync(full);
      if (!kind.isFile() && !kind.isSymbolicLink()) continue;
      unlinkSync(full);
      removed.push(rel);
    } catch {
      // gone already, or unreadable: nothing of ours to remove
    }
  }
  return removed;
}
