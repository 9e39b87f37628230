// The facts the harness reads from git: the changed files, the complete diff and a
// snapshot hash that changes whenever the tree does. Paths are read NUL-separated (exact names,
// no quoting), with colour and external diff drivers off whatever the user's config says.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ignoredPath } from '../../engine/run/changed-files';
import type { GitGuardFacts } from '../../engine/run/git-guard';

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

const TRACKED_DIFFS = [
  ['diff', '--no-color', '--no-ext-diff', '--binary'],
  ['diff', '--cached', '--no-color', '--no-ext-diff', '--binary'],
];
const STATUS = ['status', '--porcelain=v1', '-z', '--no-renames', '--untracked-files=all'];

/** Porcelain entries (`XY path`) outside the harness's ignores; `??` marks an untracked file. */
async function statusEntries(repo: string): Promise<{ entries: string[]; stderr: string }> {
  const r = await git(repo, STATUS);
  if (r.code !== 0) throw new Error(r.stderr.trim() || 'git status failed');
  const entries = r.stdout
    .toString('utf8')
    .split('\0')
    .filter((e) => e.length > 3 && !ignoredPath(e.slice(3)));
  return { entries, stderr: r.stderr };
}

function sortedPaths(entries: string[]): string[] {
  const all = new Set(entries.map((e) => e.slice(3)));
  return [...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Unstaged + staged + untracked, minus the harness's own ignores, sorted and unique: one
 * `git status` (its entries are exactly the union of `diff --name-only`, `diff --cached
 * --name-only` and `ls-files --others --exclude-standard`).
 */
export async function changedFiles(repo: string, base: string | null = null): Promise<string[]> {
  const [status, committed] = await Promise.all([statusEntries(repo), committedSince(repo, base)]);
  return sortedPaths([...status.entries, ...committed.files.map((f) => `   ${f}`)]);
}

/** What the harness reads from the tree at one moment: changed files, snapshot hash and diff. */
export interface TreeState {
  changedFiles: string[];
  /** SHA-256 over both tracked diffs, the filtered status and every untracked file's bytes. */
  snapshot: string;
  /** Both tracked diffs and a `/dev/null` diff per untracked file, joined; ends with one `\n`. */
  diff: string;
}

/**
 * Reads the tree once for everything a step needs (a handful of git processes, run in parallel),
 * where separate reads of the changed files, the snapshot and the diff would each spawn their own.
 */
export async function treeState(
  repo: string,
  options: { diff: boolean; base?: string | null } = { diff: true },
): Promise<TreeState> {
  const [unstaged, staged, status, committed] = await Promise.all([
    git(repo, TRACKED_DIFFS[0] as string[]),
    git(repo, TRACKED_DIFFS[1] as string[]),
    statusEntries(repo),
    committedSince(repo, options.base ?? null),
  ]);
  const untracked = status.entries.filter((e) => e.startsWith('??')).map((e) => e.slice(3));
  const h = createHash('sha256');
  for (const [label, r] of [
    ['diff', unstaged],
    ['diff --cached', staged],
  ] as const) {
    h.update(`${label}\0`);
    h.update(r.stdout);
    h.update(r.stderr);
  }
  h.update('status\0');
  h.update(status.entries.join('\n'));
  h.update('committed\0');
  h.update(committed.diff);
  h.update(status.stderr);
  const [bytes, added] = await Promise.all([
    Promise.all(untracked.map((p) => fileBytes(join(repo, p)))),
    options.diff
      ? Promise.all(
          untracked.map((p) =>
            git(repo, ['diff', '--no-color', '--no-ext-diff', '--no-index', '--', '/dev/null', p]),
          ),
        )
      : Promise.resolve([]),
  ]);
  untracked.forEach((path, i) => {
    const content = bytes[i];
    if (content === null) return; // a folder (an untracked submodule) or gone
    h.update(path);
    h.update('\0');
    h.update(content as Buffer);
  });
  const parts = [
    committed.diff.toString('utf8'),
    unstaged.stdout.toString('utf8'),
    staged.stdout.toString('utf8'),
    ...added.map((r) => r.stdout.toString('utf8')),
  ];
  const joined = parts
    .filter((p) => p !== '')
    .map((p) => p.replace(/\n+$/, ''))
    .join('\n');
  return {
    changedFiles: sortedPaths([...status.entries, ...committed.files.map((f) => `   ${f}`)]),
    snapshot: h.digest('hex'),
    diff: options.diff ? joined.replace(/\n+$/, '') + '\n' : '',
  };
}

/** HEAD's commit, or null before the first commit. */
export async function headCommit(repo: string): Promise<string | null> {
  const r = await git(repo, ['rev-parse', '-q', '--verify', 'HEAD^{commit}']);
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

/**
 * What was committed since `base` (the HEAD before the run's first agent): a coder that commits
 * leaves a clean working tree, so the status alone would not see its files.
 */
async function committedSince(repo: string, base: string | null): Promise<{ files: string[]; diff: Buffer }> {
  const none = { files: [], diff: Buffer.alloc(0) };
  if (base === null) return none;
  const head = await headCommit(repo);
  if (head === base) return none;
  const to = head ?? '4b825dc642cb6eb9a060e54bf8d69288fbee4904'; // the empty tree: HEAD gone
  const [names, diff] = await Promise.all([
    git(repo, ['diff', '--name-only', '-z', '--no-renames', base, to]),
    git(repo, ['diff', '--no-color', '--no-ext-diff', '--binary', base, to]),
  ]);
  const files = names.stdout
    .toString('utf8')
    .split('\0')
    .filter((f) => f !== '' && !ignoredPath(f));
  return { files, diff: diff.stdout };
}

/** SHA-256 over a file or a folder's whole content (names, kinds, bytes, link targets); 'absent' when missing. */
async function treeDigest(path: string): Promise<string> {
  const h = createHash('sha256');
  const walk = async (p: string, rel: string): Promise<void> => {
    let s;
    try {
      s = await lstat(p);
    } catch {
      h.update(`${rel}\0absent\0`);
      return;
    }
    h.update(`${rel}\0${s.mode}\0`);
    if (s.isSymbolicLink()) h.update(await readlink(p).catch(() => ''));
    else if (s.isFile()) h.update(await readFile(p).catch(() => Buffer.alloc(0)));
    else if (s.isDirectory()) {
      const names = (await readdir(p).catch(() => [] as string[])).sort();
      for (const name of names) await walk(join(p, name), `${rel}/${name}`);
    }
  };
  await walk(path, '');
  return h.digest('hex');
}

/** The git facts an agent must not change (see engine/run/git-guard.ts). */
export async function gitGuard(repo: string): Promise<GitGuardFacts> {
  const [common, flagged] = await Promise.all([
    git(repo, ['rev-parse', '--path-format=absolute', '--git-common-dir']),
    git(repo, ['ls-files', '-v', '-z']),
  ]);
  const dir = common.stdout.toString('utf8').trim() || join(repo, '.git');
  const [config, hooks, info] = await Promise.all(
    ['config', 'hooks', 'info'].map((part) => treeDigest(join(dir, part))),
  );
  // `ls-files -v` tags skip-worktree entries `S` and assume-unchanged ones in lower case.
  const hidden = flagged.stdout
    .toString('utf8')
    .split('\0')
    .filter((e) => e.length > 2 && (e[0] === 'S' || /^[a-z]$/.test(e[0] as string)))
    .map((e) => e.slice(2))
    .filter((p) => !ignoredPath(p))
    .sort();
  return {
    parts: { '.git/config': config as string, '.git/hooks': hooks as string, '.git/info': info as string },
    hidden,
  };
}

async function fileBytes(path: string): Promise<Buffer | null> {
  try {
    if (!(await stat(path)).isFile()) return null;
    return await readFile(path);
  } catch {
    return null;
  }
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
