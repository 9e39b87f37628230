// Read-only documents holding a file as it was at a git revision, for "open in VS Code's diff
// editor": `loop-ledger-git:/<path>?<query>` where the query names the repository root and the
// revision (`:index` for the staged version, empty for "did not exist"). Content comes from
// `git show REV:PATH` through execFile; a path missing at that revision reads as empty. The URI
// can come from anywhere (another extension, a link): its root must be a workspace folder, its
// revision and path must pass the checks in src/app/brief/revision.ts, and no git runs in an untrusted workspace.
import * as vscode from 'vscode';
import type { ChangeRef } from '../../shared/protocol';
import { workspaceRoots } from '../workspace/roots';
import { revisionContent } from './revisionContent';
import type { RevisionQuery } from '../../app/brief/revision';

export const GIT_REVISION_SCHEME = 'loop-ledger-git';

export function revisionUri(root: string, rev: string, path: string): vscode.Uri {
  const query: RevisionQuery = { root, rev, path };
  return vscode.Uri.from({ scheme: GIT_REVISION_SCHEME, path: `/${path}`, query: JSON.stringify(query) });
}

class GitRevisionProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly isTrusted: () => boolean) {}

  provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    return revisionContent(uri.query, uri.path, {
      isTrusted: this.isTrusted,
      roots: () => workspaceRoots().map((root) => root.path),
    });
  }
}

export function registerGitRevisionDocuments(isTrusted: () => boolean): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(
    GIT_REVISION_SCHEME,
    new GitRevisionProvider(isTrusted),
  );
}

/** Both sides of one file of `change`, for the `vscode.diff` command. */
export function diffSides(
  root: string,
  change: ChangeRef,
  path: string,
  oldPath: string | null,
): { left: vscode.Uri; right: vscode.Uri; title: string } {
  const before = oldPath ?? path;
  const left = revisionUri(root, change.base, before);
  const right =
    change.head === ':worktree' ? vscode.Uri.file(`${root}/${path}`) : revisionUri(root, change.head, path);
  return { left, right, title: vscode.l10n.t('{0} ({1})', path, change.label) };
}
