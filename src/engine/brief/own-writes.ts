// The brief leaves Loop Ledger's own writes out of the change it shows the critic: when the
// ledger is tracked in git, assembling a brief rewrites it, and the next "working tree vs HEAD"
// diff would put the ledger ahead of the real change and count it as part of it. A diff
// section (from one `diff --git` line to the next) whose every path is an own write is cut
// out; the declared scope drops own paths too; the packet names what was left out.
import { isOwnWrite, OWN_FOLDER } from '../own-writes';
import { pyUniversalNewlines, sortedUnique } from '../python-text';
import { diffPaths } from './diff-paths';

const GIT_HEADER = 'diff --git ';
const LF = 0x0a;
const CR = 0x0d;

/** A diff as the shells hand it over: its text, or its UTF-8 bytes (the cut may move them: the brief owns them). */
export type RawDiff = { text: string } | { utf8: Uint8Array; ascii?: boolean };

export interface WithoutOwnWrites<D extends RawDiff> {
  diff: D;
  /** The own paths the cut sections named (sorted); empty when nothing was cut. */
  leftOut: string[];
}

/** Whether the character before a match (undefined at the start) ends a line (\n or \r). */
function startsLine(prev: number | undefined): boolean {
  return prev === undefined || prev === LF || prev === CR;
}

/** What the cut needs to read of a diff, text or bytes alike. */
interface Source {
  length: number;
  /** Every position of `needle` (the text's or the bytes' own form of it), ascending. */
  positions(needle: string): number[];
  /** The character (code unit or byte) at `at`. */
  at(at: number): number | undefined;
  /** The paths of [start, end), as the brief reads a diff's paths. */
  paths(start: number, end: number): string[];
}

const RENAMED = /^(?:rename|copy) (?:from|to) (.+)$/gm;

/**
 * Every path one section names: the brief's diff paths, and also the header's second side and
 * the rename/copy lines (a rename with no content change names its new path nowhere else).
 */
function sectionPaths(section: string): string[] {
  const text = pyUniversalNewlines(section);
  const paths = diffPaths(text);
  const header = text.slice(GIT_HEADER.length, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  const sides = header.trim().split(/\s+/);
  if (sides.length === 2) for (const side of sides) paths.push(side.replace(/^[ab]\//, ''));
  for (const m of text.matchAll(RENAMED)) paths.push(m[1] as string);
  return paths;
}

function textSource(text: string): Source {
  return {
    length: text.length,
    positions: (needle) => {
      const out: number[] = [];
      for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) out.push(i);
      return out;
    },
    at: (i) => (i < 0 ? undefined : text.charCodeAt(i)),
    paths: (s, e) => sectionPaths(text.slice(s, e)),
  };
}

function byteSource(buf: Buffer): Source {
  return {
    length: buf.length,
    positions: (needle) => {
      const bytes = Buffer.from(needle);
      const out: number[] = [];
      for (let i = buf.indexOf(bytes); i !== -1; i = buf.indexOf(bytes, i + 1)) out.push(i);
      return out;
    },
    at: (i) => (i < 0 ? undefined : buf[i]),
    paths: (s, e) => sectionPaths(buf.toString('utf8', s, e)),
  };
}

/**
 * The diff without its sections that touch only Loop Ledger's own writes. Only a section that
 * names the own folder is decoded and read, so a diff without one costs a single search.
 * A section is kept whenever it names any other path (a rename out of `.loop/`, a hunk line that
 * reads as a path): the rule never hides part of the change.
 */
export function withoutOwnSections<D extends RawDiff>(diff: D, rootPrefix = ''): WithoutOwnWrites<D> {
  const marker = `${rootPrefix}${OWN_FOLDER}/`;
  const buf =
    'utf8' in diff ? Buffer.from(diff.utf8.buffer, diff.utf8.byteOffset, diff.utf8.byteLength) : null;
  const source = buf ? byteSource(buf) : textSource((diff as { text: string }).text);
  const marks = source.positions(marker);
  if (marks.length === 0) return { diff, leftOut: [] };
  const starts = source.positions(GIT_HEADER).filter((at) => startsLine(source.at(at - 1)));
  const keep: [number, number][] = [[0, starts[0] ?? source.length]]; // text before any section stays
  const leftOut: string[] = [];
  let m = 0;
  for (let i = 0; i < starts.length; i++) {
    const s = starts[i] as number;
    const e = starts[i + 1] ?? source.length;
    while (m < marks.length && (marks[m] as number) < s) m++;
    const named = m < marks.length && (marks[m] as number) < e ? source.paths(s, e) : [];
    if (named.length > 0 && named.every((p) => isOwnWrite(p, rootPrefix))) {
      leftOut.push(...named);
      continue;
    }
    const last = keep[keep.length - 1] as [number, number];
    if (last[1] === s) last[1] = e;
    else keep.push([s, e]);
  }
  if (leftOut.length === 0) return { diff, leftOut: [] };
  const result = buf
    ? { ...diff, utf8: compactInPlace(buf, keep) }
    : { ...diff, text: keep.map(([s, e]) => (diff as { text: string }).text.slice(s, e)).join('') };
  return { diff: result, leftOut: sortedUnique(leftOut) };
}

/**
 * The kept ranges of `buf`, moved together over its own bytes (the brief owns the diff's bytes,
 * as Utf8Diff does): a copy of a 20 MiB diff into fresh memory costs more than the brief itself.
 * When one range is kept — the usual case, since git lists `.loop/` first — nothing moves.
 */
function compactInPlace(buf: Buffer, keep: readonly [number, number][]): Buffer {
  const ranges = keep.filter(([s, e]) => e > s);
  if (ranges.length === 1) return buf.subarray(ranges[0]![0], ranges[0]![1]);
  let length = 0;
  for (const [s, e] of ranges) {
    if (s !== length) buf.copyWithin(length, s, e);
    length += e - s;
  }
  return buf.subarray(0, length);
}

/** Declared paths without own writes, and the own ones it dropped. */
export function withoutOwnDeclared(
  declared: string[],
  rootPrefix = '',
): { declared: string[]; leftOut: string[] } {
  const own = declared.filter((p) => isOwnWrite(p, rootPrefix));
  if (own.length === 0) return { declared, leftOut: [] };
  return { declared: declared.filter((p) => !isOwnWrite(p, rootPrefix)), leftOut: own };
}

/** How many left-out paths the packet's line names before it says "and N more". */
const NAMED = 10;

/** The packet's one line about what was left out, or null when nothing was. */
export function leftOutLine(leftOut: readonly string[]): string | null {
  if (leftOut.length === 0) return null;
  const named = leftOut.slice(0, NAMED).join(', ');
  const more = leftOut.length > NAMED ? ` and ${leftOut.length - NAMED} more` : '';
  return `Left out of the diff and the scope check as Loop Ledger's own writes (its ledgers and records, not part of the change): ${named}${more}.`;
}
