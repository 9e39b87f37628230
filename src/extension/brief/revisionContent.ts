// What a `loop-ledger-git:` document holds, decided without `vscode` so the order of the checks
// is unit-tested with the trust answer, the workspace folders and git injected: trust first (an
// untrusted workspace runs no git at all, whatever the URI says: repository config can run
// programs, e.g. core.fsmonitor or a textconv), then the URI's root, revision and path, then git.
import * as l10n from '@vscode/l10n';
import { checkRevisionQuery, showFileArgs } from '../../drivers/git/revisions';

export interface RevisionContentDeps {
  /** VS Code's workspace trust, asked on every request (trust can be granted or revoked live). */
  isTrusted(): boolean;
  /** The workspace folders' paths: the only roots a document may read from. */
  roots(): string[];
  runGit(cwd: string, args: readonly string[]): Promise<string>;
}

export class UntrustedGitError extends Error {}

/** The file at the URI's revision ('' when it did not exist there); rejects what it refuses. */
export async function revisionContent(
  uriQuery: string,
  shownPath: string,
  deps: RevisionContentDeps,
): Promise<string> {
  if (!deps.isTrusted())
    throw new UntrustedGitError(l10n.t('Loop Ledger runs no git in an untrusted workspace.'));
  const query = checkRevisionQuery(uriQuery, deps.roots());
  if ('refused' in query)
    throw new Error(l10n.t('Loop Ledger: refused to show {0}: {1}.', shownPath, query.refused));
  if (query.rev === '') return '';
  return deps.runGit(query.root, showFileArgs(query.rev, query.path)).catch(() => '');
}
