// Splits a unified diff into one piece per file, with what the file list shows about each: the
// path, how the file changed and how many lines were added and removed. Pure string work, so the
// panel can list 200 files at once and hand only the files a person opens to the renderer.

export type FileChange = 'modified' | 'added' | 'deleted' | 'renamed' | 'binary';

export interface DiffFile {
  /** The path after the change (before it, for a deleted file). */
  path: string;
  /** The path before the change when it differs (renames). */
  oldPath: string | null;
  change: FileChange;
  additions: number;
  deletions: number;
  /** This file's part of the diff, header included; what the side-by-side renderer is given. */
  patch: string;
}

const GIT_HEADER = 'diff --git ';

/** `a/x` → `x`; `/dev/null` → null. */
function side(raw: string): string | null {
  const path = raw.split('\t')[0]!.trim();
  if (path === '' || path === '/dev/null') return null;
  return path.startsWith('a/') || path.startsWith('b/') ? path.slice(2) : path;
}

/** `diff --git a/x b/x` names both sides; with spaces in paths only the ` b/` split is reliable. */
function headerPaths(header: string): { before: string | null; after: string | null } {
  const rest = header.slice(GIT_HEADER.length);
  const at = rest.indexOf(' b/');
  if (at === -1) return { before: null, after: null };
  return { before: side(rest.slice(0, at)), after: side(rest.slice(at + 1)) };
}

function describe(lines: string[]): DiffFile {
  let before: string | null = null;
  let after: string | null = null;
  let renameFrom: string | null = null;
  let renameTo: string | null = null;
  let change: FileChange = 'modified';
  let additions = 0;
  let deletions = 0;
  let inHunks = false;
  for (const line of lines) {
    if (inHunks) {
      if (line.startsWith('+')) additions++;
      else if (line.startsWith('-')) deletions++;
      continue;
    }
    if (line.startsWith('@@')) inHunks = true;
    else if (line.startsWith(GIT_HEADER)) ({ before, after } = headerPaths(line));
    else if (line.startsWith('--- ')) before = side(line.slice(4));
    else if (line.startsWith('+++ ')) after = side(line.slice(4));
    else if (line.startsWith('new file mode')) change = 'added';
    else if (line.startsWith('deleted file mode')) change = 'deleted';
    else if (line.startsWith('rename from ')) renameFrom = line.slice('rename from '.length);
    else if (line.startsWith('rename to ')) renameTo = line.slice('rename to '.length);
    else if (line.startsWith('Binary files ') || line === 'GIT binary patch') change = 'binary';
  }
  if (renameTo !== null) {
    after = renameTo;
    before = renameFrom ?? before;
    if (change === 'modified') change = 'renamed';
  }
  if (change === 'modified' && before === null && after !== null) change = 'added';
  if (change === 'modified' && after === null && before !== null) change = 'deleted';
  const path = after ?? before ?? '(unnamed file)';
  const oldPath = before !== null && before !== path ? before : null;
  return { path, oldPath, change, additions, deletions, patch: lines.join('\n') };
}

/**
 * One DiffFile per file of `diff`, in diff order. Files start at `diff --git` lines; a diff
 * without them (plain `diff -u` output) starts a file at each `--- ` line followed by `+++ `.
 */
export function splitDiff(diff: string): DiffFile[] {
  const lines = diff.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const gitStyle = lines.some((line) => line.startsWith(GIT_HEADER));
  const starts: number[] = [];
  lines.forEach((line, i) => {
    if (gitStyle ? line.startsWith(GIT_HEADER) : line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ '))
      starts.push(i);
  });
  if (starts.length === 0) return lines.length > 0 ? [describe(lines)] : [];
  return starts.map((start, k) => describe(lines.slice(start, starts[k + 1] ?? lines.length)));
}
