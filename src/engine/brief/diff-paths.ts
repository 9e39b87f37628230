// The paths a unified diff touches. Only three kinds of line matter (`diff --git `, `--- `,
// `+++ `), so instead of splitting a multi-megabyte diff into an array of lines only the lines
// that begin with those are read (prefixed-lines.ts). An ASCII chunk of a diff kept as bytes goes
// to the WebAssembly scanner, which does the same for ASCII (diff-scan.wat escape, gitDiffPaths).
import type { ChunkedText } from '../chunked-text';
import { eachPrefixedLine } from '../prefixed-lines';
import { PY_WHITESPACE, pyStrip, sortedUnique } from '../python-text';
import { diffScanner } from './diff-scan';

const GIT_HEADER = 'diff --git ';

/** The beginnings of the only lines that name paths. */
const PATH_LINE_PREFIXES: readonly string[] = [GIT_HEADER, '--- ', '+++ '];

const PY_SPLIT = new RegExp(`[${PY_WHITESPACE}]+`);

/** `a/x.py` → `x.py`; `/dev/null` or nothing → null (the absent side of an add or delete). */
function stripSide(side: string): string | null {
  if (!side || side === '/dev/null') return null;
  const resolved = side.startsWith('a/') || side.startsWith('b/') ? side.slice(2) : side;
  return resolved || null;
}

function readPathLine(line: string, found: Set<string>): void {
  if (line.startsWith(GIT_HEADER)) {
    const sides = pyStrip(line.slice(GIT_HEADER.length)).split(PY_SPLIT);
    // A header whose paths contain spaces is ambiguous; the ---/+++ lines name it instead.
    if (sides.length !== 2) return;
    for (const side of sides) {
      const resolved = stripSide(side);
      if (resolved) {
        found.add(resolved);
        return;
      }
    }
  } else if (line.startsWith('--- ') || line.startsWith('+++ ')) {
    const rest = line.slice(4);
    const tab = rest.indexOf('\t');
    const resolved = stripSide(pyStrip(tab === -1 ? rest : rest.slice(0, tab)));
    if (resolved) found.add(resolved);
  }
}

/**
 * Every path the diff names, sorted (by code point) and unique. A two-sided `diff --git A B`
 * header contributes its first side that is not `/dev/null`; every `--- ` and `+++ ` line
 * contributes its path (the text before a tab, trimmed). `a/` and `b/` prefixes are removed.
 * Lines are split as Python's `str.splitlines()` splits them.
 *
 * Like the original engine, a hunk line that happens to begin with `--- ` or `+++ ` (a
 * removed `-- x` or an added `++ x`) is read as a path too.
 */
export function diffPaths(diff: string | ChunkedText): string[] {
  const found = new Set<string>();
  const visit = (line: string): void => readPathLine(line, found);
  const scanner = typeof diff !== 'string' && diff.scansWithWasm ? diffScanner() : null;
  let fromBytes: string[] = [];
  if (typeof diff === 'string') {
    eachPrefixedLine(diff, PATH_LINE_PREFIXES, visit);
  } else if (scanner?.beginPaths(PATH_LINE_PREFIXES)) {
    // ASCII chunks are escaped by the scanner now (they will be for the id anyway), which keeps
    // their paths on the way; the other chunks come as text.
    try {
      for (const chunk of diff.textOrEscaped())
        if (chunk !== null) eachPrefixedLine(chunk, PATH_LINE_PREFIXES, visit);
    } finally {
      fromBytes = scanner.finishPaths();
    }
  } else {
    for (const chunk of diff.chunks()) eachPrefixedLine(chunk, PATH_LINE_PREFIXES, visit);
  }
  if (found.size === 0) return fromBytes; // sorted and unique already
  return sortedUnique([...compact(found), ...fromBytes]);
}

/**
 * Paths read from a string are slices of it, views that keep the whole text alive (and sorting
 * 17,000 slices of a 20 MiB string compares bytes scattered over all of it, ~4× slower than
 * sorting compact copies). One JSON round trip makes every path its own small string (lone
 * surrogates included, exactly).
 */
function compact(paths: Set<string>): string[] {
  return JSON.parse(JSON.stringify([...paths])) as string[];
}
