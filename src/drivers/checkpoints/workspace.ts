// Finds the repository a checkpoint is written to: the git work tree around the root, or, when
// the root is in none, a shadow repository under `.loop/checkpoints.git` that holds only our
// refs and objects (its work tree is the root; `.loop/` itself is excluded).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isObjectId } from '../../engine/checkpoints/rules';
import { GitFailed, type GitPlace, type GitResult } from './git';
import { gitStep, runSync, type Program } from './program';

export interface CheckpointWorkspace {
  place: GitPlace;
  /** The git dir (a worktree's own, where its index and HEAD live). */
  gitDir: string;
  /** Where the repository's shared refs live (the git dir, or a worktree's main one). */
  commonDir: string;
  /** The index a private copy starts from: the user's, or the shadow repository's stat cache. */
  indexPath: string;
  shadow: boolean;
  /** HEAD's commit when the workspace was opened (null before the first commit, or in a shadow repository). */
  head: string | null;
  /** The store's `.loop/` folder relative to the work tree top, with a trailing slash. */
  loopPrefix: string;
}

export class CheckpointRefused extends Error {}

/**
 * One git process finds everything: whether git runs at all, the work tree, its git dir and
 * HEAD's commit (`--revs-only` prints nothing for HEAD before the first commit).
 */
export function openWorkspace(root: string): CheckpointWorkspace {
  return runSync(openWorkspaceProgram(root));
}

export function* openWorkspaceProgram(root: string): Program<CheckpointWorkspace> {
  let probe: GitResult;
  try {
    probe = yield* gitStep({ top: root }, [
      'rev-parse',
      '--is-bare-repository',
      '--show-toplevel',
      '--absolute-git-dir',
      '--path-format=absolute',
      '--git-common-dir',
      '--revs-only',
      '--end-of-options',
      'HEAD^{commit}',
    ]);
  } catch (error) {
    if (!(error instanceof GitFailed)) throw error;
    throw new CheckpointRefused(
      'checkpoints need git, and no git program could be run (install git or leave out --checkpoint)',
    );
  }
  if (probe.code === 0) {
    const [bare, top, gitDir, commonDir, head] = probe.stdout.toString('utf8').trim().split('\n');
    if (bare === 'true' || !top || !gitDir || !commonDir) {
      throw new CheckpointRefused(`${root} is inside a git directory, not a work tree`);
    }
    return {
      place: { top },
      gitDir,
      commonDir,
      indexPath: join(gitDir, 'index'),
      shadow: false,
      head: isObjectId(head) ? head : null,
      loopPrefix: prefixOf(top, root),
    };
  }
  return yield* shadowWorkspace(root);
}

function prefixOf(top: string, root: string): string {
  const rel = relative(top, join(root, '.loop')).split(sep).join('/');
  return `${rel}/`;
}

function* shadowWorkspace(root: string): Program<CheckpointWorkspace> {
  const gitDir = join(root, '.loop', 'checkpoints.git');
  if (!existsSync(join(gitDir, 'HEAD'))) {
    mkdirSync(join(root, '.loop'), { recursive: true });
    const init = yield* gitStep({ top: root }, ['init', '--bare', '--quiet', '--', gitDir]);
    if (init.code !== 0) {
      throw new GitFailed(`git init: ${init.stderr.trim().split('\n')[0] || `exit ${init.code}`}`);
    }
    // The shadow repository sees the whole root; the store's own folder is never part of it.
    mkdirSync(join(gitDir, 'info'), { recursive: true });
    writeFileSync(join(gitDir, 'info', 'exclude'), '/.loop/\n');
  }
  return {
    place: { top: root, shadowGitDir: gitDir },
    gitDir,
    commonDir: gitDir,
    indexPath: join(gitDir, 'index'),
    shadow: true,
    head: null,
    loopPrefix: '.loop/',
  };
}
