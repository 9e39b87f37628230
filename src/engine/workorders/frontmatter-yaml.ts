// Work-order frontmatter read as YAML, safely: the core schema (timestamps stay strings) and no
// aliases (refused at parse time, so an expansion bomb never expands).
import { parse } from 'yaml';
import { frontmatterText } from './frontmatter';
import { isObject } from './jq';

export type FrontmatterResult = { ok: true; data: Record<string, unknown> } | { ok: false; error: string };

/**
 * Parses the frontmatter safely. `no_frontmatter` when the region is missing or blank;
 * a YAML error (aliases included) is reported by its message; a non-mapping document reads as {}.
 */
export function readFrontmatter(text: string): FrontmatterResult {
  const fm = frontmatterText(text);
  if (fm.trim() === '') return { ok: false, error: 'no_frontmatter' };
  try {
    const data: unknown = parse(fm, { schema: 'core', maxAliasCount: 0, prettyErrors: false });
    return { ok: true, data: isObject(data) ? data : {} };
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? 'unreadable';
    return { ok: false, error: /alias/i.test(message) ? 'frontmatter_alias_rejected' : message };
  }
}
