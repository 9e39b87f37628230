// Read-only documents holding a file as a workspace checkpoint has it, for VS Code's diff editor:
// `loop-ledger-checkpoint:/<path>?{"root","commit","shadow"}`. Anything can build such a URI (a
// link, another extension), so before git runs: the workspace must be trusted, the root must be a
// workspace folder, the commit a full hex object id and the path a plain path inside the
// repository. Content comes from `git cat-file blob <commit>:<path>` through the checkpoint
// drivers' pinned git, run asynchronously; a path the checkpoint does not hold reads as empty.
import { join } from 'node:path';
import * as vscode from 'vscode';
import { gitOkAsync, type GitPlace } from '../../drivers/checkpoints/git';
import { isObjectId } from '../../engine/checkpoints/rules';
import { workspaceRoots } from '../workspace/roots';

export const CHECKPOINT_SCHEME = 'loop-ledger-checkpoint';

interface CheckpointQuery {
  root: string;
  commit: string;
  shadow: boolean;
}

/** `path` is relative to the repository's top (the shadow repository's top is the root). */
export function checkpointUri(root: string, commit: string, shadow: boolean, path: string): vscode.Uri {
  const query: CheckpointQuery = { root, commit, shadow };
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${path}`, query: JSON.stringify(query) });
}

/** The checked query, or why it is refused. */
export function checkQuery(
  rawQuery: string,
  rawPath: string,
  roots: readonly string[],
): (CheckpointQuery & { path: string }) | { refused: string } {
  let value: unknown;
  try {
    value = JSON.parse(rawQuery);
  } catch {
    return { refused: 'the query is not JSON' };
  }
  const q = value as Partial<CheckpointQuery> | null;
  if (typeof q?.root !== 'string' || !roots.includes(q.root))
    return { refused: 'the root is not a workspace folder' };
  if (!isObjectId(q.commit)) return { refused: 'the commit is not a full object id' };
  const path = rawPath.replace(/^\//, '');
  const segments = path.split('/');
  if (path.includes('\0') || segments.some((s) => s === '' || s === '.' || s === '..')) {
    return { refused: 'the path is not a plain path inside the repository' };
  }
  return { root: q.root, commit: q.commit, shadow: q.shadow === true, path };
}

export function placeOf(root: string, shadow: boolean): GitPlace {
  return shadow ? { top: root, shadowGitDir: join(root, '.loop', 'checkpoints.git') } : { top: root };
}

class CheckpointContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly isTrusted: () => boolean) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    if (!this.isTrusted())
      throw new Error(vscode.l10n.t('Loop Ledger runs no git in an untrusted workspace.'));
    const query = checkQuery(
      uri.query,
      uri.path,
      workspaceRoots().map((r) => r.path),
    );
    if ('refused' in query)
      throw new Error(vscode.l10n.t('Loop Ledger: refused to show {0}: {1}.', uri.path, query.refused));
    const place = placeOf(query.root, query.shadow);
    const blob = await gitOkAsync(place, ['cat-file', 'blob', `${query.commit}:${query.path}`]).catch(
      () => null,
    );
    return blob === null ? '' : blob.toString('utf8');
  }
}

export function registerCheckpointDocuments(isTrusted: () => boolean): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(
    CHECKPOINT_SCHEME,
    new CheckpointContentProvider(isTrusted),
  );
}
