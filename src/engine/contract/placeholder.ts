// Placeholder detection for evidence commands. A placeholder
// is a token that shows the author never ran the command. The search runs over the raw text,
// not the tokenised words, so it also finds placeholders inside a quoted program
// (`python3 -c "run('--root','R')"`). Each shape is kept narrow: real commands such as
// `--format JSON`, `--component always-on`, globs, `{…}` and `$VAR` must not match.

// Character classes spelled to behave like Python's Unicode-aware `\w` and `\s`, which the
// original engine's detector used; JavaScript's own `\w`/`\s` differ at the edges.
import { lazyRegExp } from '../lazy-regexp';
import { PY_WHITESPACE } from '../python-text';

const WORD = String.raw`[\p{L}\p{N}_]`;
export const PYTHON_SPACE = `[${PY_WHITESPACE}]`;

/** Between a long flag and its value: quotes, commas and whitespace, in any mix. */
const GAP = String.raw`(?:['",]|${PYTHON_SPACE})`;

const SHAPES = [
  // A long flag whose value is a bare one- or two-letter capital token: `--root R`,
  // `'--root','R'`, `--session "AB"`. The token must end at a quote, comma, space or the end of
  // the text, so `--format JSON` and `--root R1` are left alone.
  String.raw`--[a-z](?:${WORD}|-)*${GAP}+[A-Z]{1,2}(?=${GAP}|$)`,
  // An angle-bracket stand-in: `<session-id>`, `<path to file>`.
  String.raw`<[A-Za-z_](?:${WORD}|[ ./-])*>`,
  // A marker left for later, as a whole word.
  String.raw`(?<!${WORD})(?:TBD|FIXME|XXX)(?!${WORD})`,
];

const PLACEHOLDER = lazyRegExp(SHAPES.join('|'), 'gu');

/**
 * Every shape above contains one of these literally, so a command without any of them holds no
 * placeholder, and the Unicode pattern (about a millisecond to build) is never built for it.
 */
const MARKERS = /--|<|TBD|FIXME|XXX/;

/** Every placeholder in `command`, in order of appearance; empty when there is none. */
export function findPlaceholders(command: string): string[] {
  if (!MARKERS.test(command)) return [];
  return Array.from(command.matchAll(PLACEHOLDER()), (match) => match[0]);
}

/** True if `command` carries at least one placeholder. */
export function hasPlaceholder(command: string): boolean {
  return findPlaceholders(command).length > 0;
}
