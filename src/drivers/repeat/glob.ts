// `repeat`'s --scope / --exclude globs over root-relative POSIX paths, with the meaning of git's
// `:(glob)` pathspecs: `*` and `?` stay inside one path segment, `**` crosses segments, `[…]` is
// a character class; a pattern without "/" matches at any depth; a pattern that names a
// directory covers everything under it. The git recipe hands the same patterns to git itself
// (gitPathspecs), so both recipes agree.
//
// A second glob dialect on purpose: the harness, the work orders and risk tiering use Python's
// fnmatch (engine/run/fnmatch.ts), where `*` also crosses "/"; these globs must mean what git
// makes of them, which fnmatch cannot.

function escape(ch: string): string {
  return /[.+^${}()|\\]/.test(ch) ? `\\${ch}` : ch;
}

/** The pattern anchored at the root: "x" and "x/" → "**\/x"; "/x" → "x". */
function anchored(pattern: string): string {
  const trimmed = pattern.replace(/\/+$/, '');
  if (trimmed.startsWith('/')) return trimmed.slice(1);
  return trimmed.includes('/') ? trimmed : `**/${trimmed}`;
}

/** A git `:(glob)` pathspec (anchored as above) as a regular expression over a relative path. */
export function gitGlobRegExp(pattern: string): RegExp {
  const glob = anchored(pattern);
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    if (ch === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else if (ch === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = end;
      }
    } else re += escape(ch);
  }
  // The path itself, or anything below it (a directory pattern covers its contents).
  return new RegExp(`^${re}(?:/.*)?$`);
}

export interface PathFilter {
  (relPath: string): boolean;
}

/** In scope: matches a scope glob (or there are none) and no exclude glob. */
export function pathFilter(scope: readonly string[], exclude: readonly string[]): PathFilter {
  const include = scope.map(gitGlobRegExp);
  const skip = exclude.map(gitGlobRegExp);
  return (path) =>
    (include.length === 0 || include.some((re) => re.test(path))) && !skip.some((re) => re.test(path));
}

/** The same globs as git pathspecs, with our own folders always excluded. */
export function gitPathspecs(
  scope: readonly string[],
  exclude: readonly string[],
  alwaysExcluded: readonly string[],
): string[] {
  const magic = (kind: string, pattern: string) => [
    `:(${kind})${anchored(pattern)}`,
    `:(${kind})${anchored(pattern)}/**`,
  ];
  const include = scope.length === 0 ? ['.'] : scope.flatMap((g) => magic('glob', g));
  return [
    ...include,
    ...exclude.flatMap((g) => magic('exclude,glob', g)),
    ...alwaysExcluded.flatMap((p) => magic('exclude,glob', p)),
  ];
}
