// Revisions and paths that reach `git` from outside the extension's own code (a document URI,
// a restored webview's state, a range typed by a person) are checked here before any git runs,
// and are always placed after `--end-of-options`, so none can be read as an option such as
// `--output=FILE`. No `vscode` here: the rules are unit-tested.

/** A ref name, a hash, or a ref with `^`, `~N`, `@{…}`: what the brief ever asks git about. */
const REVISION = /^[A-Za-z0-9_][A-Za-z0-9_./^~@{}+-]*$/;

/** Why `rev` cannot be given to git as one revision, or undefined when it can. */
export function revisionProblem(rev: string): string | undefined {
  if (!REVISION.test(rev) || rev.includes('..') || rev.length > 256) {
    return `not a revision git is asked about here: ${JSON.stringify(rev.slice(0, 80))}`;
  }
  return undefined;
}

/** Why `path` is not a repository-relative file path, or undefined when it is. */
export function repoPathProblem(path: string): string | undefined {
  const bad =
    path === '' ||
    path.startsWith('/') ||
    /^[A-Za-z]:/.test(path) ||
    /[\0\r\n]/.test(path) ||
    path.split(/[\\/]/).some((segment) => segment === '..');
  return bad ? `not a path inside the repository: ${JSON.stringify(path.slice(0, 120))}` : undefined;
}

/** `git show` arguments for a file at a revision (`:index` = the staged version). */
export function showFileArgs(rev: string, path: string): string[] {
  const spec = rev === ':index' ? `:${path}` : `${rev}:${path}`;
  return ['show', '--no-textconv', '--no-color', '--end-of-options', spec];
}

/** What a `loop-ledger-git:` document's query names: a repository root, a revision, a path. */
export interface RevisionQuery {
  root: string;
  /** `:index` for the staged version, empty for "did not exist". */
  rev: string;
  path: string;
}

/** The query's three strings, or why the URI is refused. */
export function checkRevisionQuery(
  rawQuery: string,
  roots: readonly string[],
): RevisionQuery | { refused: string } {
  let value: unknown;
  try {
    value = JSON.parse(rawQuery);
  } catch {
    return { refused: 'the document address is not one Loop Ledger made' };
  }
  const { root, rev, path } = (value ?? {}) as Record<string, unknown>;
  if (typeof root !== 'string' || typeof rev !== 'string' || typeof path !== 'string') {
    return { refused: 'the document address is not one Loop Ledger made' };
  }
  if (!roots.includes(root)) return { refused: `${root} is not a folder of this workspace` };
  const problem =
    (rev === '' || rev === ':index' ? undefined : revisionProblem(rev)) ?? repoPathProblem(path);
  return problem ? { refused: problem } : { root, rev, path };
}
