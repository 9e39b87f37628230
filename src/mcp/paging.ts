// Paging that stays stable while other processes append: a cursor names the last item served
// (an iteration's number, a session id), never an offset, so a new iteration or a new session
// never shifts a page. Every page also stops at a character budget, whatever the page size, so
// no result can outgrow a client's context (25,000 tokens, about 100,000 characters).

/**
 * A result carries its data twice (structuredContent, and the same JSON as text for clients that
 * read only text): twice this stays under 25,000 tokens at ~4 characters a token, with room for
 * the envelope.
 */
export const PAGE_CHARS = 40_000;
/** Longer strings in a row are cut (an iteration's note can be megabytes). */
export const FIELD_CHARS = 2_000;

/** `value` with every string longer than FIELD_CHARS cut and marked; arrays capped at 100 items. */
export function compact(value: unknown): unknown {
  if (typeof value === 'string')
    return value.length > FIELD_CHARS ? `${value.slice(0, FIELD_CHARS)}… [${value.length} chars]` : value;
  if (Array.isArray(value)) {
    const head = value.slice(0, 100).map(compact);
    return value.length > 100 ? [...head, `… [${value.length} items]`] : head;
  }
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]));
  return value;
}

/** As many of `rows` (already compacted) as fit `limit` and the character budget; at least one. */
export function fitPage<T>(rows: T[], limit: number): T[] {
  const page: T[] = [];
  let chars = 0;
  for (const row of rows) {
    if (page.length >= limit) break;
    const size = JSON.stringify(row).length + 1;
    if (page.length > 0 && chars + size > PAGE_CHARS) break;
    page.push(row);
    chars += size;
  }
  return page;
}
