// Finds the repository a checkpoint is written to: the git work tree around the root, or, when
// the root is in none, a shadow repository under `.loop/checkpoints.git` that holds only our
// refs and objects (its work tree is the root; `.loop/` itself is excluded).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { git, gitAvailable, gitOk, type GitPlace } from './git';

export interface CheckpointWorkspace {
  place: GitPlace;
  /** The git dir (a worktree's own, where its index and HEAD live). */
  gitDir: string;
  /** The index a private copy starts from: the user's, or the shadow repository's stat cache. */
  indexPath: string;
  shadow: boolean;
  /** The store's `.loop/` folder relative to the work tree top, with a trailing slash. */
  loopPrefix: string;
}

export class CheckpointRefused extends Error {}

export function openWorkspace(root: string): CheckpointWorkspace {
  if (!gitAvailable()) {
    throw new CheckpointRefused(
      'checkpoints need git, and no git program could be run (install git or leave out --checkpoint)',
    );
  }
  const probe = git({ top: root }, [
    'rev-parse',
    '--is-bare-repository',
    '--show-toplevel',
    '--absolute-git-dir',
  ]);
  if (probe.code === 0) {
    const [bare, top, gitDir] = probe.stdout.toString('utf8').trim().split('\n');
    if (bare === 'true' || !top || !gitDir) {
      throw new CheckpointRefused(`${root} is inside a git directory, not a work tree`);
    }
    return {
      place: { top },
      gitDir,
      indexPath: join(gitDir, 'index'),
      shadow: false,
      loopPrefix: prefixOf(top, root),
    };
  }
  return shadowWorkspace(root);
}

function prefixOf(top: string, root: string): string {
  const rel = relative(top, join(root, '.loop')).split(sep).join('/');
  return `${rel}/`;
}

function shadowWorkspace(root: string): CheckpointWorkspace {
  const gitDir = join(root, '.loop', 'checkpoints.git');
  if (!existsSync(join(gitDir, 'HEAD'))) {
    mkdirSync(join(root, '.loop'), { recursive: true });
    gitOk({ top: root }, ['init', '--bare', '--quiet', '--', gitDir]);
    // The shadow repository sees the whole root; the store's own folder is never part of it.
    mkdirSync(join(gitDir, 'info'), { recursive: true });
    writeFileSync(join(gitDir, 'info', 'exclude'), '/.loop/\n');
  }
  return {
    place: { top: root, shadowGitDir: gitDir },
    gitDir,
    indexPath: join(gitDir, 'index'),
    shadow: true,
    loopPrefix: '.loop/',
  };
}
