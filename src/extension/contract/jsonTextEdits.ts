// Structural edits to JSON text through jsonc-parser, which keeps the author's layout and
// comments and indents new members the way the document already is. No `vscode` here.
import { applyEdits, modify, type FormattingOptions } from 'jsonc-parser';

export type JsonPath = (string | number)[];

/** Sets (or inserts) the value at `path`; `undefined` removes the member. Returns the new text. */
export function setJsonValue(
  text: string,
  path: JsonPath,
  value: unknown,
  format: FormattingOptions,
): string {
  return applyEdits(text, modify(text, path, value, { formattingOptions: format }));
}

/** Inserts several members into the object at `objectPath`, in the order given. */
export function addJsonMembers(
  text: string,
  objectPath: JsonPath,
  members: readonly [string, unknown][],
  format: FormattingOptions,
): string {
  return members.reduce(
    (current, [key, value]) => setJsonValue(current, [...objectPath, key], value, format),
    text,
  );
}

/**
 * The smallest single replacement turning `before` into `after` (common prefix and suffix kept),
 * so an edit built from whole texts still touches only the lines it changes.
 */
export function minimalReplacement(
  before: string,
  after: string,
): { offset: number; length: number; text: string } {
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before[start] === after[start]) start++;
  let end = 0;
  while (end < shorter - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return { offset: start, length: before.length - start - end, text: after.slice(start, after.length - end) };
}
