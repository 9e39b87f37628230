// Python's `re` and `float()` are Unicode-aware where JavaScript's are not: `\d` is any decimal
// digit (category Nd), `\w` any letter, number or underscore, `\b` a boundary between them, and
// `float('٣')` is 3. The original validator relies on all four, so the parser and rules here use
// these helpers instead of JavaScript's ASCII-only classes.

import { lazyRegExp } from '../lazy-regexp';

/** Python's `\w` for text: letters, numbers, underscore. */
export const WORD_CHAR = '[\\p{L}\\p{N}_]';
/** Python's `\d` for text: any decimal digit. */
export const DIGIT = '\\p{Nd}';
/** Python's `\b`, written as look-arounds (JavaScript's `\b` only knows ASCII words). */
export const WORD_START = `(?<!${WORD_CHAR})(?=${WORD_CHAR})`;
export const WORD_END = `(?<=${WORD_CHAR})(?!${WORD_CHAR})`;

// Built on first use (lazy-regexp.ts): only a non-ASCII digit ever needs it.
const IS_DIGIT = lazyRegExp(String.raw`^\p{Nd}$`, 'u');

/**
 * The value of one decimal digit of any script. Unicode encodes every decimal digit in
 * contiguous runs of ten starting at zero, so the value is the distance from its run's start.
 */
function digitValue(ch: string): number {
  const cp = ch.codePointAt(0) as number;
  let start = cp;
  while (start > 0 && IS_DIGIT().test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

/** Rewrites every decimal digit (of any script) as its ASCII digit. */
export function asciiDigits(text: string): string {
  if (/^[0-9.+-]*$/.test(text)) return text;
  return text.replace(/\p{Nd}/gu, (d) => (d >= '0' && d <= '9' ? d : String(digitValue(d))));
}

/** Python's `float()` of a token the numeric patterns matched (sign, digits, optional point). */
export function pyFloat(token: string): number {
  return Number(asciiDigits(token));
}

/** The character classes a pattern is built from: Python's (Unicode) or their ASCII equivalents. */
export interface Classes {
  /** `\w` */
  word: string;
  /** `\d` */
  digit: string;
  /** `\b` before a word */
  start: string;
  /** `\b` after a word */
  end: string;
}

const UNICODE: Classes = { word: WORD_CHAR, digit: DIGIT, start: WORD_START, end: WORD_END };
const ASCII: Classes = {
  word: '[A-Za-z0-9_]',
  digit: '[0-9]',
  start: '(?<![A-Za-z0-9_])(?=[A-Za-z0-9_])',
  end: '(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])',
};
const ONLY_ASCII = /^[\t\n\r -~]*$/; // printable ASCII: any other text just takes the Unicode build

/**
 * A pattern built twice, each compiled on first use: over ASCII text (nearly every contract) the
 * ASCII classes give the same matches as Python's Unicode ones, and compile in a fraction of the
 * time — each `\p{L}` class costs about a millisecond to compile, and `validate` is started once
 * per agent step. Text with any other character gets the Unicode build.
 */
export function textPattern(build: (c: Classes) => string, flags: string): (text: string) => RegExp {
  let ascii: RegExp | undefined;
  let unicode: RegExp | undefined;
  return (text) =>
    ONLY_ASCII.test(text)
      ? (ascii ??= new RegExp(build(ASCII), flags.replace('u', '')))
      : (unicode ??= new RegExp(build(UNICODE), flags.includes('u') ? flags : `${flags}u`));
}
