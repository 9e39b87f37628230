// The facts the harness reads from git (reference §4): the changed files, the complete diff and a
// snapshot hash that changes whenever the tree does. Paths are read NUL-separated (exact names,
// no quoting), with colour and external diff drivers off whatever the user's config says.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ignoredPath } from '../../engine/harness/changed-files';

const GIT_BUFFER = 512 * 1024 * 1024;
const NEUTRAL = ['-c', 'color.ui=never', '-c', 'core.quotePath=false', '-c', 'diff.noprefix=false'];

interface GitOutput {
  code: number;
  stdout: Buffer;
  stderr: string;
}

function git(repo: string, args: string[]): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...NEUTRAL, ...args],
      { cwd: repo, encoding: 'buffer', maxBuffer: GIT_BUFFER },
      (error, stdout, stderr) => {
        const code = error
          ? typeof (error as { code?: unknown }).code === 'number'
            ? (error as { code: number }).code
            : -1
          : 0;
        if (error && code === -1) {
          reject(new Error(`git ${args[0]}: ${error.message}`));
          return;
        }
        resolve({ code, stdout, stderr: stderr.toString('utf8') });
      },
    );
  });
}

async function gitPaths(repo: string, args: string[]): Promise<string[]> {
  const r = await git(repo, args);
  if (r.code !== 0) throw new Error(r.stderr.trim() || `git ${args.join(' ')} failed`);
  return r.stdout
    .toString('utf8')
    .split('\0')
    .filter((p) => p !== '');
}

function untracked(repo: string): Promise<string[]> {
  return gitPaths(repo, ['ls-files', '-z', '--others', '--exclude-standard']);
}

/** Unstaged + staged + untracked, minus the harness's own ignores, sorted and unique. */
export async function changedFiles(repo: string): Promise<string[]> {
  const lists = await Promise.all([
    gitPaths(repo, ['diff', '-z', '--no-renames', '--name-only']),
    gitPaths(repo, ['diff', '-z', '--cached', '--no-renames', '--name-only']),
    untracked(repo),
  ]);
  const all = new Set(lists.flat().filter((p) => !ignoredPath(p)));
  return [...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

const TRACKED_DIFFS = [
  ['diff', '--no-color', '--no-ext-diff', '--binary'],
  ['diff', '--cached', '--no-color', '--no-ext-diff', '--binary'],
];

/** Both tracked diffs and a `/dev/null` diff per untracked file, joined; ends with one `\n`. */
export async function completeDiff(repo: string): Promise<string> {
  const [unstaged, staged, newFiles] = await Promise.all([
    git(repo, TRACKED_DIFFS[0] as string[]),
    git(repo, TRACKED_DIFFS[1] as string[]),
    untracked(repo),
  ]);
  const parts = [unstaged.stdout.toString('utf8'), staged.stdout.toString('utf8')];
  const kept = newFiles.filter((p) => !ignoredPath(p));
  const added = await Promise.all(
    kept.map((p) => git(repo, ['diff', '--no-color', '--no-ext-diff', '--no-index', '--', '/dev/null', p])),
  );
  parts.push(...added.map((r) => r.stdout.toString('utf8')));
  const joined = parts
    .filter((p) => p !== '')
    .map((p) => p.replace(/\n+$/, ''))
    .join('\n');
  return joined.replace(/\n+$/, '') + '\n';
}

/** A hash over both tracked diffs, the filtered status and every untracked file's bytes. */
export async function worktreeSnapshot(repo: string): Promise<string> {
  const h = createHash('sha256');
  const [a, b, status, newFiles] = await Promise.all([
    git(repo, TRACKED_DIFFS[0] as string[]),
    git(repo, TRACKED_DIFFS[1] as string[]),
    git(repo, ['status', '--porcelain=v1', '-z', '--no-renames', '--untracked-files=all']),
    untracked(repo),
  ]);
  for (const [label, r] of [
    ['diff', a],
    ['diff --cached', b],
  ] as const) {
    h.update(`${label}\0`);
    h.update(r.stdout);
    h.update(r.stderr);
  }
  const entries = status.stdout
    .toString('utf8')
    .split('\0')
    .filter((e) => e !== '' && !ignoredPath(e.slice(3)));
  h.update('status\0');
  h.update(entries.join('\n'));
  h.update(status.stderr);
  for (const path of newFiles) {
    if (ignoredPath(path)) continue;
    const full = join(repo, path);
    try {
      if (!(await stat(full)).isFile()) continue;
      h.update(path);
      h.update('\0');
      h.update(await readFile(full));
    } catch {
      h.update(`${path}\0<unreadable>`);
    }
  }
  return h.digest('hex');
}

/** The top level of the work tree containing `dir`, or null when `dir` is not in one. */
export async function workTreeTop(dir: string): Promise<string | null> {
  try {
    const r = await git(dir, ['rev-parse', '--show-toplevel']);
    return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
  } catch {
    return null;
  }
}
