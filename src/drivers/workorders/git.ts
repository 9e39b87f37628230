// Git facts for the work-order loop, always via argv (never a shell) and `--end-of-options`
// before any caller-supplied revision, so a revision can never be read as an option.
import { spawnSync } from 'node:child_process';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function git(cwd: string, args: string[]): GitResult {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status ?? 1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

export function isWorkTree(cwd: string): boolean {
  return git(cwd, ['rev-parse', '--is-inside-work-tree']).code === 0;
}

export function head(cwd: string): string | undefined {
  const r = git(cwd, ['rev-parse', 'HEAD']);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

const SHA = /^[0-9a-f]{7,40}$/;

export function looksLikeSha(value: string): boolean {
  return SHA.test(value);
}

/** `git merge-base --is-ancestor a b`: true only on a clean yes. */
export function isAncestor(cwd: string, ancestor: string, descendant: string): boolean {
  if (!looksLikeSha(ancestor)) return false;
  return git(cwd, ['merge-base', '--is-ancestor', '--end-of-options', ancestor, descendant]).code === 0;
}

export function resetHard(cwd: string, sha: string): boolean {
  // `reset` does not take --end-of-options (git 2.39); the sha check keeps an option out.
  if (!looksLikeSha(sha)) return false;
  return git(cwd, ['reset', '-q', '--hard', sha]).code === 0;
}

/** Paths changed between two commits, or undefined when git cannot say. */
export function changedPaths(cwd: string, from: string, to: string): string[] | undefined {
  const r = git(cwd, ['diff', '--name-only', '--end-of-options', from, to]);
  if (r.code !== 0) return undefined;
  return r.stdout.split('\n').filter((line) => line.length > 0);
}

/** 0 no diff, 1 diff, other = error (bad ref). */
export function diffQuiet(cwd: string, from: string, to: string): number {
  return git(cwd, ['diff', '--quiet', '--end-of-options', from, to]).code;
}

export function dirty(cwd: string): boolean {
  return git(cwd, ['status', '--porcelain']).stdout.trim() !== '';
}

/**
 * Loop Ledger's own run-time folders (harness runs, ledgers) that a build never commits: the
 * harness writes them into the worktree it builds in, and does not count them as changes either.
 */
const NEVER_COMMITTED = [':(exclude).loop/runs', ':(exclude).loop/ledgers'];

/** Stages everything and commits; returns the new HEAD, or undefined when nothing was committed. */
export function commitAll(cwd: string, message: string): string | undefined {
  if (!dirty(cwd)) return undefined;
  git(cwd, ['add', '-A', '--', '.', ...NEVER_COMMITTED]);
  const r = git(cwd, [
    '-c',
    'user.name=loop-ledger',
    '-c',
    'user.email=loop-ledger@localhost',
    'commit',
    '-q',
    '--no-verify',
    '-m',
    message,
  ]);
  return r.code === 0 ? head(cwd) : undefined;
}
