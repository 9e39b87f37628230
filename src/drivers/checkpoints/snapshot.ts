// Takes a checkpoint's commit without touching the user's repository: a private copy of the
// index (so unchanged files are not hashed again), the changed and untracked paths (left-out ones
// excepted) updated in it, `write-tree`, `commit-tree` with HEAD as parent. Only objects are written here;
// the ref is created separately (refs.ts), once the iteration's number is known.
// The sequence is a program (program.ts): the CLI runs it blocking, the extension host without.
import { existsSync, mkdtempSync, renameSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import type * as Os from 'node:os';
import { join } from 'node:path';
import { exclusions, type Candidate, type ExcludedPath } from '../../engine/checkpoints/rules';
import { nodeCrypto } from '../../engine/node-crypto';
import { GitFailed, type GitCall, type GitPlace } from './git';
import { copyIndexStep, gitStep, lstatStep, readTextsStep, runSync, type Program } from './program';
import { CheckpointRefused, type CheckpointWorkspace } from './workspace';

/**
 * node:os, loaded when a snapshot is taken (node:crypto too, through node-crypto.ts): every
 * `iterate` and `resume` reaches this module, and most take no checkpoint.
 */
let os: typeof Os | undefined;
function osModule(): typeof Os {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  os ??= require('node:os') as typeof Os;
  return os;
}

export interface Snapshot {
  commit: string;
  tree: string;
  head: string | null;
  excluded: ExcludedPath[];
}

const IDENTITY = { name: 'Loop Ledger', email: 'loop-ledger@localhost' };

export interface SnapshotOptions {
  maxFileBytes: number;
  now: Date;
  message: string;
}

export function takeSnapshot(ws: CheckpointWorkspace, options: SnapshotOptions): Snapshot {
  return runSync(snapshotProgram(ws, options));
}

export function* snapshotProgram(ws: CheckpointWorkspace, options: SnapshotOptions): Program<Snapshot> {
  yield* refuseMissingLfs(ws);
  const dir = mkdtempSync(join(osModule().tmpdir(), 'loop-ledger-checkpoint-'));
  const index = join(dir, 'index');
  try {
    if (existsSync(ws.indexPath)) yield* copyIndexStep(ws.indexPath, index);
    const scan = yield* candidates(ws, index);
    const excluded = exclusions(scan.candidates, options.maxFileBytes);
    // Only the paths git reported as changed or untracked are named, so no command walks the
    // tree a second time or compares every index entry with its file. `update-index` takes them
    // as plain paths (never options or patterns): a missing one is removed, an untracked one added
    // (through the same clean filters as `add`), and `--replace` lets a file take the place of a
    // folder or the other way round. Nothing changed, nothing to add.
    const left = new Set(excluded.map((e) => e.path));
    const paths = scan.changed.filter((p) => !left.has(p));
    const added =
      paths.length === 0
        ? { code: 0, stderr: '' }
        : yield* gitStep(ws.place, ['update-index', '--add', '--remove', '--replace', '-z', '--stdin'], {
            index,
            input: paths.map((p) => `${p}\0`).join(''),
          });
    if (added.code !== 0) {
      // A filter the configuration files did not show (an unusual system config) fails here: say why.
      yield* refuseMissingLfs(ws, true);
      throw new CheckpointRefused(
        `the workspace could not be read into a checkpoint: ${firstLine(added.stderr)}`,
      );
    }
    // `--missing-ok`: every object the index names is the user's index's own or was just written
    // above, so git does not look each of them up again (most of write-tree's time in a large
    // repository), and in a partial clone it does not fetch blobs the user never had.
    const tree = yield* gitTextStep(ws.place, ['write-tree', '--missing-ok'], { index });
    const head = ws.head;
    const seconds = Math.floor(options.now.getTime() / 1000);
    const date = `@${seconds} +0000`;
    // A trailer unique to this snapshot: two processes checkpointing the same tree within one
    // second would otherwise write the very same commit, and a ref made ahead of the ledger's lock
    // is later told apart as "still ours" by its commit id alone (releasePendingRef).
    const nonce = `Loop-Ledger-Snapshot: ${nodeCrypto().randomBytes(8).toString('hex')}`;
    const commit = yield* gitTextStep(
      ws.place,
      [
        'commit-tree',
        '--no-gpg-sign',
        ...(head ? ['-p', head] : []),
        '-m',
        options.message,
        '-m',
        nonce,
        tree,
      ],
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
    removeScratch(dir, index);
  }
}

/** The private index's folder: its one file and the folder (a leftover lock file: the whole folder). */
function removeScratch(dir: string, index: string): void {
  try {
    if (existsSync(index)) unlinkSync(index);
    rmdirSync(dir);
  } catch {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A git call that must succeed; its stdout as trimmed text. */
function* gitTextStep(place: GitPlace, args: readonly string[], call: GitCall = {}): Program<string> {
  return (yield* gitOkStep(place, args, call)).toString('utf8').trim();
}

function* gitOkStep(place: GitPlace, args: readonly string[], call: GitCall = {}): Program<Buffer> {
  const r = yield* gitStep(place, args, call);
  if (r.code !== 0) {
    const why = r.stderr.trim().split('\n')[0] || `exit ${r.code}`;
    throw new GitFailed(`git ${args[0]}: ${why}`);
  }
  return r.stdout;
}

/**
 * Untracked, modified and deleted paths (the only ones a checkpoint must read again; the rest
 * are as the index copy has them) outside `.loop/`, and every submodule entry; each candidate
 * with what it is on disk. One `ls-files` reads the index and walks the tree once for all of
 * it: `-t` tags each entry (`?` untracked, `C` modified or deleted, `H`/`S`/`M`… an index
 * entry), so a file whose name looks like an index line is never read as one.
 */
function* candidates(
  ws: CheckpointWorkspace,
  index: string,
): Program<{ candidates: Candidate[]; changed: string[] }> {
  const listing = yield* gitOkStep(
    ws.place,
    ['ls-files', '-z', '-t', '--stage', '--others', '--modified', '--exclude-standard'],
    { index },
  );
  const out: Candidate[] = [];
  const changed: string[] = [];
  const seen = new Set<string>();
  const submodules = new Set<string>();
  const loop = ws.loopPrefix;
  for (const entry of interestingEntries(listing)) {
    const tag = entry[0];
    let path: string;
    if (tag === '?') {
      path = entry.slice(2);
    } else {
      const tab = entry.indexOf('\t');
      if (tab < 0) continue;
      path = entry.slice(tab + 1);
      if (entry.startsWith('160000 ', 2)) {
        if (!submodules.has(path)) out.push({ path, kind: 'submodule', bytes: 0 });
        submodules.add(path);
        continue;
      }
      if (tag !== 'C') continue;
    }
    if (seen.has(path) || path.startsWith(loop)) continue;
    seen.add(path);
    // git lists a nested repository as its folder, with a trailing slash, and does not enter it.
    if (path.endsWith('/')) {
      out.push({ path: path.slice(0, -1), kind: 'nested-repository', bytes: 0 });
      continue;
    }
    changed.push(path);
  }
  const stats = yield* lstatStep(changed.map((path) => join(ws.place.top, path)));
  changed.forEach((path, i) => {
    const stat = stats[i];
    if (!stat) return; // deleted: `update-index --remove` records the deletion
    out.push({ path, kind: stat.isFile() ? 'file' : 'other', bytes: stat.isFile() ? stat.size : 0 });
  });
  return { candidates: out, changed };
}

const SPACE = 0x20;
const GITLINK = Buffer.from('160000 ');

/** Whether the entry at `at` starts with the submodule mode `160000 `. */
function isGitlink(listing: Buffer, at: number, end: number): boolean {
  if (end - at < GITLINK.length || listing[at] !== 0x31 /* 1 */ || listing[at + 1] !== 0x36 /* 6 */)
    return false;
  for (let i = 2; i < GITLINK.length; i += 1) if (listing[at + i] !== GITLINK[i]) return false;
  return true;
}

/**
 * The entries of `ls-files -z -t --stage` worth reading as text: every one but an unchanged,
 * non-submodule index entry. A repository's index lists every tracked file; only these few are
 * decoded, so a 10,000-file index costs a byte scan, not 10,000 strings.
 */
function* interestingEntries(listing: Buffer): Generator<string> {
  let start = 0;
  while (start < listing.length) {
    let end = listing.indexOf(0, start);
    if (end < 0) end = listing.length;
    if (end - start >= 3 && listing[start + 1] === SPACE) {
      // Byte comparisons only: this runs once per tracked file.
      if (listing[start] !== 0x48 /* H */ || isGitlink(listing, start + 2, end))
        yield listing.toString('utf8', start, end);
    }
    start = end + 1;
  }
}

/**
 * An LFS filter configured while git-lfs is missing would fail `update-index` midway: refuse
 * first. Asking git costs a process on every checkpoint, so git's configuration files are read
 * first and git is asked only when one mentions LFS or includes another file (`always`: ask
 * anyway, after a failure those files did not explain).
 */
function* refuseMissingLfs(ws: CheckpointWorkspace, always = false): Program<void> {
  if (!always) {
    const texts = yield* readTextsStep(configFiles(ws));
    if (!texts.some((t) => t !== null && /lfs|\[\s*include/i.test(t))) return;
  }
  const configured = yield* gitStep(ws.place, ['config', '--get-regexp', '^filter\\.lfs\\.']);
  if (configured.code !== 0 || configured.stdout.length === 0) return;
  const lfs = yield* gitStep(ws.place, ['lfs', 'version']);
  if (lfs.code !== 0) {
    throw new CheckpointRefused(
      'this repository configures a Git LFS filter but git-lfs is not installed; install git-lfs to take checkpoints',
    );
  }
}

/** Where git reads its configuration from (system, global, the repository's and its worktree's). */
function configFiles(ws: CheckpointWorkspace): string[] {
  const env = process.env;
  const home = env.HOME || osModule().homedir();
  const system =
    env.GIT_CONFIG_NOSYSTEM === '1' || env.GIT_CONFIG_NOSYSTEM === 'true'
      ? []
      : env.GIT_CONFIG_SYSTEM
        ? [env.GIT_CONFIG_SYSTEM]
        : ['/etc/gitconfig', '/usr/local/etc/gitconfig', '/opt/homebrew/etc/gitconfig'];
  const global = env.GIT_CONFIG_GLOBAL
    ? [env.GIT_CONFIG_GLOBAL]
    : [join(home, '.gitconfig'), join(env.XDG_CONFIG_HOME || join(home, '.config'), 'git', 'config')];
  return [...system, ...global, join(ws.commonDir, 'config'), join(ws.gitDir, 'config.worktree')];
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
