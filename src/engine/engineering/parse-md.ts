// The `.loop.md` line grammar, hand-written to the exact semantics of the original validator
// (the original `validate_loop_contract.py`): every quirk of its two line patterns is kept on
// purpose, because a contract the original refuses must be refused here with the same findings.
//
// - The text is cut into lines where Python's `splitlines()` cuts (\n, \r\n, \r, \v, \f, U+001C–
//   U+001E, U+0085, U+2028, U+2029). A byte-order mark is NOT removed: the original reads the file
//   as plain UTF-8, so a leading BOM becomes part of the first line (see `bom` below).
// - A line holding one or more KNOWN field names (the 22 and their aliases), each at the line
//   start (after optional whitespace and a `-`/`*`/`+` bullet) or after a run of two or more
//   spaces/tabs, optionally in `**bold**`, followed by optional whitespace and `:`, is read as
//   that many fields: each value runs to the next name. An empty value neither replaces nor
//   extends a filled one; a filled one is appended to an earlier value with `; `.
// - Any other `Key: value` line is kept under its normalised key (lower case, whitespace
//   collapsed), its value appended with `; ` when the key repeats — even when that value is empty.
import { PY_LINE_BREAKS, PY_WHITESPACE } from '../python-text';
import { FIELD_ALIASES, KNOWN_NAMES } from './fields';

/** Where a field was first written: 0-based editor line and UTF-16 columns. */
export interface FieldSpot {
  line: number;
  nameStart: number;
  nameEnd: number;
  valueStart: number;
  valueEnd: number;
}

export interface ParsedEngineeringContract {
  /** Normalised key → value, in first-seen order (the original's dict). */
  fields: Map<string, string>;
  /** Normalised key → where it first appears. */
  spots: Map<string, FieldSpot>;
  /** The text starts with a byte-order mark (which hides the first line's field name, as in the original). */
  bom: boolean;
}

/** One line as `splitlines()` yields it, with where it starts in the editor's lines. */
interface SourceLine {
  text: string;
  line: number;
  column: number;
}

const BREAK = new RegExp(`\\r\\n|[${PY_LINE_BREAKS}]`, 'g');
const EDITOR_BREAK = /^(?:\r\n|\r|\n)$/;

function sourceLines(text: string): SourceLine[] {
  const out: SourceLine[] = [];
  let line = 0;
  let column = 0;
  let pos = 0;
  for (const m of text.matchAll(BREAK)) {
    const index = m.index as number;
    const segment = text.slice(pos, index);
    out.push({ text: segment, line, column });
    if (EDITOR_BREAK.test(m[0])) {
      line++;
      column = 0;
    } else {
      // \v, \f, U+2028 … end a line for Python but not for the editor.
      column += segment.length + m[0].length;
    }
    pos = index + m[0].length;
  }
  if (pos < text.length) out.push({ text: text.slice(pos), line, column });
  return out;
}

const WS = new RegExp(`[${PY_WHITESPACE}]`);
const WS_RUN = new RegExp(`[${PY_WHITESPACE}]+`, 'g');
const isWs = (ch: string | undefined): boolean => ch !== undefined && WS.test(ch);

/** The original's key normalisation: strip, lower-case, collapse whitespace to one space. */
export function normalise(text: string): string {
  const [a, b] = strippedSpan(text, 0, text.length);
  return text.slice(a, b).toLowerCase().replace(WS_RUN, ' ');
}

interface KnownMatch {
  start: number;
  end: number;
  name: string;
  nameStart: number;
}

/** After the name at `p`: optional `**`, optional whitespace, `:`. Returns the index after `:`. */
function colonAfter(line: string, p: number): number {
  let q = line.startsWith('**', p) ? p + 2 : p;
  while (isWs(line[q])) q++;
  return line[q] === ':' ? q + 1 : -1;
}

/** A known name (optionally bold) starting at `p`, followed by its colon. */
function nameAt(line: string, start: number, p: number): KnownMatch | null {
  const at = line.startsWith('**', p) ? p + 2 : p;
  for (const name of KNOWN_NAMES) {
    const written = line.slice(at, at + name.length);
    if (written.length !== name.length || written.toLowerCase() !== name) continue;
    const end = colonAfter(line, at + name.length);
    if (end > 0) return { start, end, name, nameStart: at };
  }
  return null;
}

/** A known-field match starting exactly at `pos`, as the original's pattern tries it there. */
function knownAt(line: string, pos: number): KnownMatch | null {
  if (pos === 0) {
    // Line start: any whitespace, then an optional bullet (`-`, `*` or `+` and whitespace).
    let p = 0;
    while (isWs(line[p])) p++;
    if ('-*+'.includes(line[p] ?? 'x') && isWs(line[p + 1])) {
      p++;
      while (isWs(line[p])) p++;
    }
    const found = nameAt(line, 0, p);
    if (found) return found;
  }
  // Anywhere: a run of two or more spaces or tabs (the template's column layout).
  let e = pos;
  while (line[e] === ' ' || line[e] === '\t') e++;
  return e - pos >= 2 ? nameAt(line, pos, e) : null;
}

function knownMatches(line: string): KnownMatch[] {
  const out: KnownMatch[] = [];
  let pos = 0;
  while (pos < line.length) {
    const found = knownAt(line, pos);
    if (found) {
      out.push(found);
      pos = found.end;
    } else if (pos > 0 && (line[pos] === ' ' || line[pos] === '\t')) {
      // Every later start inside this run of spaces reaches the same name, which did not match.
      while (line[pos] === ' ' || line[pos] === '\t') pos++;
    } else pos++;
  }
  return out;
}

/**
 * Any other `Key: value` line, as the original's pattern `^\s*(?:[-*+]\s+)?(?:\*\*)?([^:*]+?)
 * (?:\*\*)?\s*:\s*(.+?)\s*$` reads it — written out by hand, in linear time (the pattern
 * itself backtracks for minutes over a long run of spaces). The colon is always the line's first
 * (a key holds none), the value is everything after it (at least one character), and the key
 * start is tried in the pattern's backtracking order: most leading whitespace first, then a
 * bullet, then a `**`; for each start the key is the shortest that leaves only an optional `**`
 * and whitespace before the colon, and it may not hold a `*`. Corner cases follow from that: a
 * bullet with nothing after it is read as the key, and so is a single space.
 */
function genericLine(line: string): { key: [number, number]; value: [number, number] } | null {
  const colon = line.indexOf(':');
  if (colon < 0 || colon === line.length - 1) return null;
  let rEnd = colon;
  while (rEnd > 0 && isWs(line[rEnd - 1])) rEnd--;
  const stars: number[] = [0]; // stars[i]: how many `*` in line[0, i)
  for (let i = 0; i < colon; i++) stars.push((stars[i] as number) + (line[i] === '*' ? 1 : 0));
  const closingBold = rEnd >= 2 && line[rEnd - 1] === '*' && line[rEnd - 2] === '*';
  const keyFrom = (p: number): [number, number] | null => {
    if (p >= colon) return null;
    const ends =
      closingBold && rEnd - 2 >= p + 1 ? [rEnd - 2, Math.max(rEnd, p + 1)] : [Math.max(rEnd, p + 1)];
    for (const end of ends) if (stars[end] === stars[p]) return [p, end];
    return null;
  };
  const withBold = (p: number): [number, number] | null =>
    (line.startsWith('**', p) ? keyFrom(p + 2) : null) ?? keyFrom(p);
  let leading = 0;
  while (leading < colon && isWs(line[leading])) leading++;
  for (let w = leading; w >= 0; w--) {
    if ('-*+'.includes(line[w] ?? 'x') && isWs(line[w + 1])) {
      let run = 0;
      while (isWs(line[w + 1 + run])) run++;
      for (let b = run; b >= 1; b--) {
        const key = withBold(w + 1 + b);
        if (key) return { key, value: strippedSpan(line, colon + 1, line.length) };
      }
    }
    const key = withBold(w);
    if (key) return { key, value: strippedSpan(line, colon + 1, line.length) };
  }
  return null;
}

/** Offsets of `text.slice(from, to)` once Python-stripped. */
function strippedSpan(text: string, from: number, to: number): [number, number] {
  let a = from;
  let b = to;
  while (a < b && isWs(text[a])) a++;
  while (b > a && isWs(text[b - 1])) b--;
  return [a, b];
}

export function parseEngineeringMarkdown(text: string): ParsedEngineeringContract {
  const fields = new Map<string, string>();
  const spots = new Map<string, FieldSpot>();
  const note = (key: string, src: SourceLine, name: [number, number], value: [number, number]): void => {
    if (spots.has(key)) return;
    spots.set(key, {
      line: src.line,
      nameStart: src.column + name[0],
      nameEnd: src.column + name[1],
      valueStart: src.column + value[0],
      valueEnd: src.column + value[1],
    });
  };
  for (const src of sourceLines(text)) {
    const line = src.text;
    const matches = knownMatches(line);
    if (matches.length > 0) {
      matches.forEach((m, i) => {
        const key = FIELD_ALIASES[m.name] ?? m.name;
        const span = strippedSpan(line, m.end, matches[i + 1]?.start ?? line.length);
        const value = line.slice(span[0], span[1]);
        const before = fields.get(key);
        if (before === undefined || before === '') fields.set(key, value);
        else if (value !== '') fields.set(key, `${before}; ${value}`);
        note(key, src, [m.nameStart, m.nameStart + m.name.length], span);
      });
      continue;
    }
    const m = genericLine(line);
    if (!m) continue;
    const raw = normalise(line.slice(m.key[0], m.key[1]));
    const key = FIELD_ALIASES[raw] ?? raw;
    const value = line.slice(m.value[0], m.value[1]);
    const before = fields.get(key);
    fields.set(key, before === undefined ? value : `${before}; ${value}`);
    note(key, src, strippedSpan(line, m.key[0], m.key[1]), m.value);
  }
  return { fields, spots, bom: text.startsWith('\ufeff') };
}
