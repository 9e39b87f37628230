// What a `loop-ledger-git:` document holds, decided without `vscode` so the order of the checks
// is unit-tested with the trust answer, the workspace folders and git injected: trust first (an
// untrusted workspace runs no git at all, whatever the URI says: repository config can run
// programs, e.g. core.fsmonitor or a textconv), then the URI's root, revision and path, then git.
import * as l10n from '@vscode/l10n';
import { showFileAtRevision, type RunGit } from '../../app/brief/revision';

export interface RevisionContentDeps {
  /** VS Code's workspace trust, asked on every request (trust can be granted or revoked live). */
  isTrusted(): boolean;
  /** The workspace folders' paths: the only roots a document may read from. */
  roots(): string[];
  /** The pinned git when left out; tests pass a spy. */
  runGit?: RunGit;
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
  const shown = await showFileAtRevision(uriQuery, deps.roots(), deps.runGit);
  if ('refused' in shown)
    throw new Error(l10n.t('Loop Ledger: refused to show {0}: {1}.', shownPath, shown.refused));
  return shown.text;
}
