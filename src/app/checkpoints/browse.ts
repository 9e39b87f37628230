// What the window's checkpoint views read from git: a file as a checkpoint holds it, the files
// two checkpoints differ in, and the top of the repository. All asynchronous, through the
// checkpoint drivers' pinned git, so the extension host never waits on git.
import { gitOkAsync, type GitPlace } from '../../drivers/checkpoints/git';

export type { GitPlace };

/** The file at `path` in checkpoint `commit`; '' when the checkpoint does not hold it. */
export async function checkpointFileText(place: GitPlace, commit: string, path: string): Promise<string> {
  const blob = await gitOkAsync(place, ['cat-file', 'blob', `${commit}:${path}`]).catch(() => null);
  return blob === null ? '' : blob.toString('utf8');
}

/** The paths whose content differs between two checkpoints (renames count as two paths). */
export async function filesBetweenCheckpoints(place: GitPlace, from: string, to: string): Promise<string[]> {
  const out = await gitOkAsync(place, ['diff-tree', '-r', '-z', '--no-renames', '--name-only', from, to]);
  return out
    .toString('utf8')
    .split('\0')
    .filter((p) => p !== '');
}

/** The top of the repository `root` is in; rejects when git fails there. */
export async function repositoryTop(root: string): Promise<string> {
  return (await gitOkAsync({ top: root }, ['rev-parse', '--show-toplevel'])).toString('utf8').trim();
}
