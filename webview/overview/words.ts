// The overview and dashboard pages' words: the host posts a table of them in the display language
// (src/extension/overview/overviewWords.ts) before the first model; until then, and for any key
// the table lacks, the English key is shown. Every word the pages render goes through `w`
// (test/unit/overview/words.test.ts refuses a literal in a rendered place).
import { formatWord } from '../../src/shared/brief-words';
import type { OverviewWord } from '../../src/shared/overview-words';

let table: Readonly<Record<string, unknown>> = {};

/** Uses `words` (untrusted shape: only string values of known keys are ever read) from now on. */
export function useWords(words: unknown): void {
  table = typeof words === 'object' && words !== null ? (words as Record<string, unknown>) : {};
}

/** `key` in the display language, `{0}`… replaced by `args`. */
export function w(key: OverviewWord, ...args: Array<string | number>): string {
  return formatWord(table, key, ...args);
}
