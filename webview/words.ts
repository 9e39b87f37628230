// The panel's words: the host sends a table of them in the display language with `show`
// (src/extension/brief/briefWords.ts); until then, and for any key the table lacks, the English
// key is shown. Every word the panel renders goes through `w` (test/unit/brief-words.test.ts
// refuses a literal in a rendered place).
import { formatWord, type BriefWord } from '../src/shared/brief-words';

let table: Readonly<Record<string, unknown>> = {};

/** Uses `words` (untrusted shape: only string values of known keys are ever read) from now on. */
export function useWords(words: unknown): void {
  table = typeof words === 'object' && words !== null ? (words as Record<string, unknown>) : {};
}

/** `key` in the display language, `{0}`… replaced by `args`. */
export function w(key: BriefWord, ...args: Array<string | number>): string {
  return formatWord(table, key, ...args);
}
