// Takes a checkpoint's commit without touching the user's repository: a private copy of the
// index (so unchanged files are not hashed again), `add -A` into it with the left-out paths
// excluded, `write-tree`, `commit-tree` with HEAD as parent. Only objects are written here;
// the ref is created separately (refs.ts), once the iteration's number is known.
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exclusions, type Candidate, type ExcludedPath } from '../../engine/checkpoints/rules';
import { git, gitOk, gitText } from './git';
import { CheckpointRefused, type CheckpointWorkspace } from './workspace';

export interface Snapshot {
  commit: string;
  tree: string;
  head: string | null;
  excluded: ExcludedPath[];
}

const IDENTITY = { name: 'Loop Ledger', email: 'loop-ledger@localhost' };

export function takeSnapshot(
  ws: CheckpointWorkspace,
  options: { maxFileBytes: number; now: Date; message: string },
): Snapshot {
  refuseMissingLfs(ws);
  const dir = mkdtempSync(join(tmpdir(), 'loop-ledger-checkpoint-'));
  const index = join(dir, 'index');
  try {
    if (existsSync(ws.indexPath)) copyIndex(ws.indexPath, index);
    const scan = candidates(ws, index);
    const excluded = exclusions(scan.candidates, options.maxFileBytes);
    // Only the paths git reported as changed or untracked are named (each literally), so `add`
    // does not walk the whole tree a second time; nothing changed, nothing to add.
    const left = new Set(excluded.map((e) => e.path));
    const paths = scan.changed.filter((p) => !left.has(p));
    const added =
      paths.length === 0
        ? { code: 0, stderr: '' }
        : git(ws.place, ['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], {
            index,
            input: paths.map((p) => `:(top,literal)${p}`).join('\0'),
          });
    if (added.code !== 0) {
      throw new CheckpointRefused(
        `the workspace could not be read into a checkpoint: ${firstLine(added.stderr)}`,
      );
    }
    const tree = gitText(ws.place, ['write-tree'], { index });
    const head = ws.shadow ? null : headCommit(ws);
    const seconds = Math.floor(options.now.getTime() / 1000);
    const date = `@${seconds} +0000`;
    const commit = gitText(
      ws.place,
      ['commit-tree', '--no-gpg-sign', ...(head ? ['-p', head] : []), '-m', options.message, tree],
      {
        env: {
          GIT_AUTHOR_NAME: IDENTITY.name,
          GIT_AUTHOR_EMAIL: IDENTITY.email,
          GIT_COMMITTER_NAME: IDENTITY.name,
          GIT_COMMITTER_EMAIL: IDENTITY.email,
          GIT_AUTHOR_DATE: date,
          GIT_COMMITTER_DATE: date,
        },
      },
    );
    // The shadow repository's index is only a stat cache for the next checkpoint: replace it whole.
    if (ws.shadow) renameSync(index, ws.indexPath);
    return { commit, tree, head, excluded };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Copies the index with its modification time (rounded down to the second). Git trusts a
 * file's cached stat data only when the file is older than the index: a copy stamped "now"
 * would hide a change made in the same second the user's index was written ("racy git").
 */
function copyIndex(from: string, to: string): void {
  copyFileSync(from, to);
  const stat = statSync(from);
  utimesSync(to, stat.atime, Math.floor(stat.mtimeMs / 1000));
}

/** HEAD's commit, or null before the first commit. */
export function headCommit(ws: CheckpointWorkspace): string | null {
  const r = git(ws.place, ['rev-parse', '--quiet', '--verify', '--end-of-options', 'HEAD^{commit}']);
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

/**
 * Untracked, modified and deleted paths (the only ones a checkpoint must read again; the rest
 * are as the index copy has them) outside `.loop/`, and every submodule entry; each candidate
 * with what it is on disk.
 */
function candidates(ws: CheckpointWorkspace, index: string): { candidates: Candidate[]; changed: string[] } {
  const list = (args: string[]) =>
    gitOk(ws.place, ['ls-files', '-z', ...args], { index })
      .toString('utf8')
      .split('\0')
      .filter((p) => p !== '');
  const out: Candidate[] = [];
  const changed: string[] = [];
  const seen = new Set<string>();
  const loop = ws.loopPrefix;
  for (const path of list(['--others', '--modified', '--exclude-standard'])) {
    if (seen.has(path) || path.startsWith(loop)) continue;
    seen.add(path);
    // git lists a nested repository as its folder, with a trailing slash, and does not enter it.
    if (path.endsWith('/')) {
      out.push({ path: path.slice(0, -1), kind: 'nested-repository', bytes: 0 });
      continue;
    }
    changed.push(path);
    const stat = lstatOrNull(join(ws.place.top, path));
    if (stat === null) continue; // deleted: `add -A` records the deletion
    out.push({ path, kind: stat.isFile() ? 'file' : 'other', bytes: stat.isFile() ? stat.size : 0 });
  }
  for (const line of list(['--stage'])) {
    if (!line.startsWith('160000 ')) continue;
    const tab = line.indexOf('\t');
    if (tab > 0) out.push({ path: line.slice(tab + 1), kind: 'submodule', bytes: 0 });
  }
  return { candidates: out, changed };
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** An LFS filter configured while git-lfs is missing would fail `add` midway: refuse first. */
function refuseMissingLfs(ws: CheckpointWorkspace): void {
  const configured = git(ws.place, ['config', '--get-regexp', '^filter\\.lfs\\.']);
  if (configured.code !== 0 || configured.stdout.length === 0) return;
  const lfs = git(ws.place, ['lfs', 'version']);
  if (lfs.code !== 0) {
    throw new CheckpointRefused(
      'this repository configures a Git LFS filter but git-lfs is not installed; install git-lfs to take checkpoints',
    );
  }
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
