// Read-only documents holding a file as a workspace checkpoint has it, for VS Code's diff editor:
// `loop-ledger-checkpoint:/<path>?{"root","commit","shadow"}`. Anything can build such a URI (a
// link, another extension), so before git runs: the workspace must be trusted, the root must be a
// workspace folder, the commit a full hex object id and the path a plain path inside the
// repository. Content comes from `git cat-file blob <commit>:<path>` through the checkpoint
// drivers' pinned git (through src/app), run asynchronously; a path the checkpoint does not hold reads as empty.
import * as vscode from 'vscode';
import { checkpointFileText } from '../../app/checkpoints/browse';
import { workspaceRoots } from '../workspace/roots';
import { checkQuery, placeOf, type CheckpointQuery } from './query';

export const CHECKPOINT_SCHEME = 'loop-ledger-checkpoint';

/** `path` is relative to the repository's top (the shadow repository's top is the root). */
export function checkpointUri(root: string, commit: string, shadow: boolean, path: string): vscode.Uri {
  const query: CheckpointQuery = { root, commit, shadow };
  return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${path}`, query: JSON.stringify(query) });
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
    return checkpointFileText(place, query.commit, query.path);
  }
}

export function registerCheckpointDocuments(isTrusted: () => boolean): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(
    CHECKPOINT_SCHEME,
    new CheckpointContentProvider(isTrusted),
  );
}
