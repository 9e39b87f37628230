// The lines of a text that begin with given prefixes, as Python's str.splitlines() splits it,
// found without splitting: a multi-megabyte diff has ~500,000 lines, and the brief wants the
// ~50,000 that name paths. A chunked text (a diff kept as bytes) runs the same rule over each
// chunk, or the WebAssembly scanner over an ASCII one (engine/brief/diff-scan.wat).
import { isVisibleAscii, PY_LINE_BREAKS } from './python-text';

/** Receives each line found, without its line break. */
export type LineVisitor = (line: string) => void;

const LINE_BREAK = new RegExp(`[${PY_LINE_BREAKS}]`);
/** The rest of a line: everything up to the next line break. */
const LINE_BODY = new RegExp(`[^${PY_LINE_BREAKS}]*`, 'y');

const searches = new Map<string, RegExp>();

/**
 * Where one of the prefixes occurs. A pattern of plain literals lets the regex engine skip
 * ahead fast (twice the speed of one that begins with a line-break class); whether the match
 * starts a line is checked after.
 */
function searchFor(prefixes: readonly string[]): RegExp {
  const key = prefixes.join('\0');
  let search = searches.get(key);
  if (!search) {
    search = new RegExp(prefixes.map((p) => p.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|'), 'g');
    searches.set(key, search);
  }
  return search;
}

/** Whether `at` starts a line: the text's start, or just after a break str.splitlines() honours. */
function startsLine(text: string, at: number): boolean {
  if (at === 0) return true;
  const before = text.charCodeAt(at - 1);
  // The common answers without a one-character string and a regular expression test.
  if (before === 0x0a) return true;
  if (isVisibleAscii(before) || before === 0x20) return false;
  return LINE_BREAK.test(text[at - 1] as string);
}

/**
 * Calls `visit` with each line of `text` that begins with one of `prefixes` (none of which
 * holds a line break), in order, without the line's break. A match in mid-line cannot hide a
 * line start, since no prefix contains a break.
 */
export function eachPrefixedLine(text: string, prefixes: readonly string[], visit: LineVisitor): void {
  const search = searchFor(prefixes);
  search.lastIndex = 0;
  for (let m = search.exec(text); m !== null; m = search.exec(text)) {
    if (!startsLine(text, m.index)) continue;
    LINE_BODY.lastIndex = m.index;
    const body = LINE_BODY.exec(text);
    visit(body ? body[0] : '');
    // The next prefix may start on the next line at the earliest (or inside this one's match).
    if (m[0].length === 0) search.lastIndex += 1;
  }
}
