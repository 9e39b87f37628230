// How the overview shows a ledger's values as text: cut to a length a page can hold.

/** Texts longer than this are cut in the overview (the ledger file has the whole text). */
export const MAX_TEXT = 2_000;

export const isText = (v: unknown): v is string => typeof v === 'string';
const cut = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);
/** A value as text: a string cut, anything else as JSON (cut), absent as ''. */
export const textOf = (v: unknown): string =>
  isText(v) ? cut(v) : v === undefined || v === null ? '' : cut(JSON.stringify(v));
