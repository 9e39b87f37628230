// The work-order body: `## Files to touch` lists the paths a build may change (each `- ` or `* `
// item gives its first backticked span, else its first token), up to the next `##` heading —
// read as the original's awk reads it: the heading is matched case-sensitively, a later
// `## Files to touch` section adds to the list, and blank entries are dropped.

const HEADING = /^##\s+Files to touch\s*$/;
const ANY_HEADING = /^##\s/;
const ITEM = /^\s*[-*]\s+(.*)$/;

export function filesToTouch(text: string): string[] {
  const files: string[] = [];
  let inside = false;
  for (const raw of text.split('\n')) {
    if (HEADING.test(raw)) {
      inside = true;
      continue;
    }
    if (inside && ANY_HEADING.test(raw)) inside = false;
    if (!inside) continue;
    const item = ITEM.exec(raw.replace(/\r$/, ''))?.[1];
    if (item === undefined) continue;
    const ticked = /`([^`]+)`/.exec(item)?.[1];
    const value = ticked ?? item.trim().split(/\s+/)[0] ?? '';
    if (value.trim() !== '') files.push(value);
  }
  return files;
}
