// Reads the paths a change-scope transcript declares. The caller runs `git show <sha> --stat`
// or `--name-only` (or the `git diff` equivalents) and hands us the output; we never run git.
// The patterns follow Python's `re` semantics: Unicode whitespace and digits, and a word
// boundary that counts letters, digits and `_` as word characters.
import { lazyRegExp } from '../lazy-regexp';
import { PY_WHITESPACE, pySplitLines, pyStrip, sortedUnique } from '../python-text';

const WS = `[${PY_WHITESPACE}]`;
const NOT_WS = `[^${PY_WHITESPACE}]`;
const END_OF_WORD = '(?![\\p{L}\\p{N}_])';
// The patterns are built on first use (lazy-regexp.ts): only `brief --change-scope` needs them.

/** `<path> | 12 +++--` or `<path> | Bin 0 -> 1234 bytes`; the path part is captured. */
const STAT_LINE = lazyRegExp(`^${WS}*(${NOT_WS}.*?)${WS}+\\|${WS}+(?:\\p{Nd}+|Bin${END_OF_WORD})`, 'u');

/** git's trailer, `3 files changed, 10 insertions(+)`: a number but no path. */
const STAT_SUMMARY = lazyRegExp(`^${WS}*\\p{Nd}+ files? changed`, 'u');

/** The header `git show` / `git log` prints above the message. */
const COMMIT_HEADER = lazyRegExp(
  `^(?:commit [0-9a-f]{7,}${END_OF_WORD}|Merge:|Author:|AuthorDate:|Commit:|CommitDate:|Date:|Notes:)`,
  'u',
);

/** A rename inside a stat path: `src/{old => new}/x.ts`. */
const BRACED_RENAME = /\{[^{}]*? => ([^{}]*?)\}/g;

/** A rename's destination: braces collapsed (`a/{ => b}/c` leaves `a//c`, hence the fix-up). */
function renameTarget(candidate: string): string {
  let path = candidate.replace(BRACED_RENAME, '$1').replaceAll('//', '/');
  const arrow = path.indexOf(' => ');
  if (arrow !== -1) path = pyStrip(path.slice(arrow + 4));
  return pyStrip(path);
}

/** Neither a path nor a stat line: blank, a summary, a commit header, or message body. */
function isNoise(line: string): boolean {
  return (
    pyStrip(line) === '' || STAT_SUMMARY().test(line) || COMMIT_HEADER().test(line) || line.startsWith('    ')
  );
}

/**
 * The paths a change-scope transcript names, sorted (by code point) and unique.
 *
 * When any `--stat` line is present only stat lines are read, so a stray prose line cannot
 * pose as a path; otherwise the transcript is `--name-only` output and every remaining line
 * is a path. Renames resolve to their destination. A `.../tail` abbreviation from a narrow
 * `--stat` is returned as written: resolving it needs the diff, which is coverage's job.
 */
export function declaredPaths(transcript: string): string[] {
  const lines = pySplitLines(transcript).filter((line) => !isNoise(line));
  const stats: string[] = [];
  for (const line of lines) {
    const match = STAT_LINE().exec(line);
    if (match?.[1] !== undefined) stats.push(match[1]);
  }
  const candidates = stats.length > 0 ? stats : lines.map(pyStrip);
  const paths: string[] = [];
  for (const candidate of candidates) {
    const path = renameTarget(candidate);
    if (path) paths.push(path);
  }
  return sortedUnique(paths);
}
