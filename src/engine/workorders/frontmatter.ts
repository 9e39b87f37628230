// Work-order frontmatter, line-wise: the text between a leading `---` line and the next one.
// Writes never re-dump YAML — they replace one line and keep every other byte, CRs included.
// (The YAML reading lives in frontmatter-yaml.ts, so the line-wise kernels never load a parser.)

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

/**
 * A scalar key read line-wise, without YAML (the reconcile/gate kernels' reader): the first
 * frontmatter line starting `key:`, trimmed, one layer of surrounding quotes removed.
 */
export function frontmatterScalar(text: string, key: string): string {
  return frontmatterScalars(text, [key])[0] ?? '';
}

function unquote(raw: string): string {
  let value = raw.trim();
  if (value.startsWith('"')) value = value.slice(1);
  if (value.endsWith('"')) value = value.slice(0, -1);
  if (value.startsWith("'")) value = value.slice(1);
  if (value.endsWith("'")) value = value.slice(0, -1);
  return value;
}

/**
 * Several scalar keys in one pass over the frontmatter (the reconcile table reads `id` and
 * `status` of a thousand files): each as frontmatterScalar reads it, '' when absent. Only the
 * frontmatter lines are visited, so a long body costs nothing but the fence search.
 */
export function frontmatterScalars(text: string, keys: readonly string[]): string[] {
  const found: (string | undefined)[] = keys.map(() => undefined);
  const fence = /^---\s*$/;
  let start = text.indexOf('\n');
  if (!fence.test(start < 0 ? text : text.slice(0, start))) return keys.map(() => '');
  let left = keys.length;
  while (start >= 0 && left > 0) {
    const from = start + 1;
    const next = text.indexOf('\n', from);
    const line = next < 0 ? text.slice(from) : text.slice(from, next);
    if (fence.test(line)) break;
    for (let k = 0; k < keys.length; k += 1) {
      if (found[k] === undefined && line.startsWith(`${keys[k]}:`)) {
        found[k] = unquote(line.slice((keys[k] as string).length + 1));
        left -= 1;
      }
    }
    start = next;
  }
  return found.map((value) => value ?? '');
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
