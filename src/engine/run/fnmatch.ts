// Scope globs with Python's `fnmatch.fnmatch` semantics on POSIX, as the original harness and its
// validator use them: `*` matches any run of characters *including `/`*, `?` one character,
// `[seq]` / `[!seq]` a class, matching is case-sensitive and covers the whole path.
//
// Hand-written on purpose: minimatch, picomatch and micromatch all stop `*` at `/` and treat `**`,
// braces and extglobs specially, so none of them reproduces these rules. This is a port of the
// algorithm of CPython 3.11's `fnmatch.translate` (class parsing, empty ranges, `[!]`), pinned by
// a table of cases produced by CPython itself (test/unit/run/fnmatch.test.ts).
//
// The one whole-path glob of the product: the harness's allowed globs, a work order's "Files to
// touch" and the risk tiering's security globs all match with it. The only other glob dialect is
// `repeat`'s scope globs (drivers/repeat/glob.ts), which must mean what git's `:(glob)` pathspecs mean.

// Only syntax characters: under the `u` flag an identity escape of anything else is an error.
const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/]/g;

function escapeLiteral(c: string): string {
  return c.replace(REGEX_SPECIAL, '\\$&');
}

/** Escapes the characters a JavaScript (non-`v`) class treats specially. */
function escapeClassPart(s: string): string {
  return s.replace(/[\\\]^-]/g, '\\$&');
}

/** The body of a `[...]` class between `start` (after `[`) and `end` (the `]`), as a regex class. */
function translateClass(pat: string, start: number, end: number): string {
  const negated = pat[start] === '!';
  const from = negated ? start + 1 : start;
  // Split the class into chunks at the hyphens that form ranges (a leading hyphen, right after
  // `[` or `[!`, is a literal), as CPython does.
  const chunks: string[] = [];
  let i = from;
  let k = from + 1;
  for (;;) {
    k = pat.indexOf('-', k);
    if (k < 0 || k >= end) break;
    chunks.push(pat.slice(i, k));
    i = k + 1;
    k = k + 3;
  }
  const tail = pat.slice(i, end);
  if (tail !== '' || chunks.length === 0) chunks.push(tail);
  else chunks[chunks.length - 1] += '-';
  // A range whose start is above its end is empty: CPython drops it (merging its neighbours).
  for (let c = chunks.length - 1; c > 0; c--) {
    const prev = chunks[c - 1] as string;
    const cur = chunks[c] as string;
    if (prev !== '' && cur !== '' && prev.slice(-1) > cur.slice(0, 1)) {
      chunks[c - 1] = prev.slice(0, -1) + cur.slice(1);
      chunks.splice(c, 1);
    }
  }
  // Rebuild: each chunk's characters are literals, the joins between chunks are ranges.
  const parts = chunks.map(escapeClassPart);
  let body = '';
  parts.forEach((part, index) => {
    if (index > 0) body += '-';
    body += part;
  });
  const literalBody = chunks.join('');
  if (chunks.length === 1 && literalBody === '') return negated ? '[\\s\\S]' : '(?!)';
  return negated ? `[^${body}]` : `[${body}]`;
}

/** Python's `fnmatch.translate(pattern)`, as an anchored JavaScript regular expression. */
export function fnmatchRegExp(pattern: string): RegExp {
  let out = '';
  let lastWasStar = false;
  let i = 0;
  const n = pattern.length;
  while (i < n) {
    const c = pattern[i] as string;
    i += 1;
    if (c === '*') {
      if (!lastWasStar) out += '[\\s\\S]*';
      lastWasStar = true;
      continue;
    }
    lastWasStar = false;
    if (c === '?') {
      out += '[\\s\\S]';
    } else if (c === '[') {
      let j = i;
      if (j < n && pattern[j] === '!') j += 1;
      if (j < n && pattern[j] === ']') j += 1;
      while (j < n && pattern[j] !== ']') j += 1;
      if (j >= n) {
        out += '\\[';
      } else {
        out += translateClass(pattern, i, j);
        i = j + 1;
      }
    } else {
      out += escapeLiteral(c);
    }
  }
  return new RegExp(`^(?:${out})$`, 'u');
}

const cache = new Map<string, RegExp>();

/** `fnmatch.fnmatch(path, pattern)` after normalising `\` to `/` in the path, as the original does. */
export function fnmatch(path: string, pattern: string): boolean {
  let re = cache.get(pattern);
  if (!re) {
    re = fnmatchRegExp(pattern);
    if (cache.size > 512) cache.clear();
    cache.set(pattern, re);
  }
  return re.test(path.replace(/\\/g, '/'));
}

export function matchesAny(path: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => fnmatch(path, p));
}

/** The paths no pattern allows, in their order. */
export function disallowedFiles(paths: readonly string[], allowed: readonly string[]): string[] {
  return paths.filter((p) => !matchesAny(p, allowed));
}
