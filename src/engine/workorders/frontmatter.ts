// Work-order frontmatter: the text between a leading `---` line and the next one. Reads are
// safe (YAML core schema, so timestamps stay strings; aliases refused, so no expansion bomb);
// writes never re-dump YAML — they replace one line and keep every other byte, CRs included.
import { parse } from 'yaml';
import { isObject } from './jq';

const FENCE = /^---\s*$/;

export interface FrontmatterRegion {
  /** Line index (0-based) of the first frontmatter line, or -1 when the file has no fence. */
  start: number;
  /** Line index one past the last frontmatter line. */
  end: number;
  lines: string[];
}

/** Splits the file on '\n' (a CR stays on its line, as awk sees it) and finds the region. */
export function frontmatterRegion(text: string): FrontmatterRegion {
  const lines = text.split('\n');
  if (!FENCE.test(lines[0] ?? '')) return { start: -1, end: -1, lines };
  let end = 1;
  while (end < lines.length && !FENCE.test(lines[end] ?? '')) end += 1;
  return { start: 1, end, lines };
}

/** The raw frontmatter text ('' when there is none). */
export function frontmatterText(text: string): string {
  const region = frontmatterRegion(text);
  if (region.start < 0) return '';
  // A file ending in '\n' yields one empty trailing "line" that is not part of the region.
  const body = region.lines.slice(region.start, region.end);
  if (region.end === region.lines.length && body.length > 0 && body[body.length - 1] === '') body.pop();
  return body.join('\n');
}

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

/**
 * A scalar key read line-wise, without YAML (the reconcile/gate kernels' reader): the first
 * frontmatter line starting `key:`, trimmed, one layer of surrounding quotes removed.
 */
export function frontmatterScalar(text: string, key: string): string {
  const region = frontmatterRegion(text);
  if (region.start < 0) return '';
  const prefix = `${key}:`;
  for (const line of region.lines.slice(region.start, region.end)) {
    if (!line.startsWith(prefix)) continue;
    let value = line.slice(prefix.length).trim();
    if (value.startsWith('"')) value = value.slice(1);
    if (value.endsWith('"')) value = value.slice(0, -1);
    if (value.startsWith("'")) value = value.slice(1);
    if (value.endsWith("'")) value = value.slice(0, -1);
    return value;
  }
  return '';
}

/** How many frontmatter lines start with `status:` (a write needs exactly one). */
export function statusLineCount(text: string): number {
  const region = frontmatterRegion(text);
  if (region.start < 0) return 0;
  let count = 0;
  for (const line of region.lines.slice(region.start, region.end)) if (line.startsWith('status:')) count += 1;
  return count;
}

/** Replaces the single `status:` line, keeping its CR; every other byte is unchanged. */
export function withStatus(text: string, status: string): string {
  const region = frontmatterRegion(text);
  const lines = [...region.lines];
  for (let i = region.start; i < region.end; i += 1) {
    const line = lines[i] ?? '';
    if (line.startsWith('status:')) lines[i] = `status: ${status}${line.endsWith('\r') ? '\r' : ''}`;
  }
  return lines.join('\n');
}
