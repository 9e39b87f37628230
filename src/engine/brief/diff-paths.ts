// The paths a unified diff touches. Only three kinds of line matter (`diff --git `, `--- `,
// `+++ `), so instead of splitting a multi-megabyte diff into an array of lines we let one
// regex find the starts of those lines and read just them. A diff kept as bytes (a ChunkedText) is
// read the same way, one chunk of whole lines at a time.
import { isVisibleAscii, PY_LINE_BREAKS, PY_WHITESPACE, pyStrip, sortedUnique } from '../python-text';
import type { ChunkedText } from '../chunked-text';

const GIT_HEADER = 'diff --git ';

/** The beginnings of the only lines that name paths. */
const PATH_LINE_PREFIXES: readonly string[] = [GIT_HEADER, '--- ', '+++ '];

/**
 * Where one of the three prefixes occurs. A pattern of plain literals lets the regex engine
 * skip ahead fast (twice the speed of one that begins with a line-break class); whether the
 * match starts a line (the text's start, or just after a break `str.splitlines()` honours) is
 * checked after. No prefix contains a break, so a match in mid-line cannot hide a real one.
 */
const CANDIDATE = new RegExp(PATH_LINE_PREFIXES.map((prefix) => prefix.replace(/\+/g, '\\+')).join('|'), 'g');
const LINE_BREAK = new RegExp(`[${PY_LINE_BREAKS}]`);
/** The rest of a line: everything up to the next line break. */
const LINE_BODY = new RegExp(`[^${PY_LINE_BREAKS}]*`, 'y');
const PY_SPLIT = new RegExp(`[${PY_WHITESPACE}]+`);

/** `a/x.py` → `x.py`; `/dev/null` or nothing → null (the absent side of an add or delete). */
function stripSide(side: string): string | null {
  if (!side || side === '/dev/null') return null;
  const resolved = side.startsWith('a/') || side.startsWith('b/') ? side.slice(2) : side;
  return resolved || null;
}

function startsLine(text: string, at: number): boolean {
  if (at === 0) return true;
  const before = text.charCodeAt(at - 1);
  // The common answers without a one-character string and a regular expression test.
  if (before === 0x0a) return true;
  if (isVisibleAscii(before) || before === 0x20) return false;
  return LINE_BREAK.test(text[at - 1] as string);
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
  // One function over every chunk and every candidate: a loop V8 optimises only when it runs
  // long (a 20 MiB diff), not a small function called per chunk that it would optimise on a
  // 1 MiB diff too, where the compile costs more than it saves (and the process waits for it).
  for (const text of typeof diff === 'string' ? [diff] : diff.chunks()) {
    const inText = new Set<string>();
    CANDIDATE.lastIndex = 0;
    for (let m = CANDIDATE.exec(text); m !== null; m = CANDIDATE.exec(text)) {
      if (!startsLine(text, m.index)) continue;
      LINE_BODY.lastIndex = m.index;
      const body = LINE_BODY.exec(text);
      readPathLine(body ? body[0] : '', inText);
    }
    // Each path is a slice of the text, i.e. a view that keeps the whole text alive: a 64 KiB
    // chunk's, or the whole diff's (and sorting 17,000 slices of a 20 MiB string compares bytes
    // scattered over all of it, ~4× slower than sorting compact copies). One JSON round trip
    // makes every path its own small string (lone surrogates included, exactly).
    for (const path of JSON.parse(JSON.stringify([...inText])) as string[]) found.add(path);
  }
  return sortedUnique(found);
}
