// The work-order body: `## Files to touch` lists the paths a build may change (each `- ` or `* `
// item gives its first backticked span, else its first token), up to the next `## ` heading.

export function filesToTouch(text: string): string[] {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const start = lines.findIndex((l) => /^##\s+Files to touch\s*$/i.test(l));
  if (start < 0) return [];
  const files: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break;
    const item = /^\s*[-*]\s+(.*)$/.exec(line)?.[1];
    if (item === undefined) continue;
    const ticked = /`([^`]+)`/.exec(item)?.[1];
    const value = ticked ?? item.trim().split(/\s+/)[0];
    if (value) files.push(value);
  }
  return files;
}
