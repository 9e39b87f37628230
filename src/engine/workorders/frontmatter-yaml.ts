// Work-order frontmatter read as YAML, safely: the core schema (timestamps stay strings) and no
// aliases (refused at parse time, so an expansion bomb never expands).
import { parse } from 'yaml';
import { frontmatterText } from './frontmatter';
import { isObject } from './jq';

export type FrontmatterResult = { ok: true; data: Record<string, unknown> } | { ok: false; error: string };

/**
 * Parses the frontmatter safely. `no_frontmatter` when the region is missing or blank;
 * a YAML error (aliases included) is reported by its message; a non-mapping document reads as {}.
 * A repeated key is an error unless `duplicateKeys: 'lastWins'` (the original's Python reader,
 * where the last one wins), which only set-status asks for: it must still reach its own
 * one-`status:`-line check and refuse `ambiguous_status_field` as the original names it.
 */
export function readFrontmatter(
  text: string,
  options: { duplicateKeys?: 'refuse' | 'lastWins' } = {},
): FrontmatterResult {
  const fm = frontmatterText(text);
  if (fm.trim() === '') return { ok: false, error: 'no_frontmatter' };
  try {
    const data: unknown = parse(fm, {
      schema: 'core',
      maxAliasCount: 0,
      prettyErrors: false,
      uniqueKeys: options.duplicateKeys !== 'lastWins',
    });
    return { ok: true, data: isObject(data) ? data : {} };
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? 'unreadable';
    return { ok: false, error: /alias/i.test(message) ? 'frontmatter_alias_rejected' : message };
  }
}
