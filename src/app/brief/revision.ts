// A file as it was at a git revision, for the window's `loop-ledger-git:` documents. The query
// comes from a URI anyone can build, so it is checked (a workspace folder, a revision and a
// repository path that cannot be read as options) before git runs. Asynchronous: the extension
// host never waits on git.
import { runGit } from '../../drivers/git/git';
import { checkRevisionQuery, showFileArgs, type RevisionQuery } from '../../drivers/git/revisions';

export type { RevisionQuery };

/** How git is run: the pinned `git` by default; tests pass a spy. */
export type RunGit = (cwd: string, args: readonly string[]) => Promise<string>;

/**
 * The file the query names ('' when it did not exist at that revision, or the revision is empty
 * for "did not exist"), or why the query is refused.
 */
export async function showFileAtRevision(
  rawQuery: string,
  roots: readonly string[],
  run: RunGit = runGit,
): Promise<{ text: string } | { refused: string }> {
  const query = checkRevisionQuery(rawQuery, roots);
  if ('refused' in query) return query;
  if (query.rev === '') return { text: '' };
  return { text: await run(query.root, showFileArgs(query.rev, query.path)).catch(() => '') };
}
