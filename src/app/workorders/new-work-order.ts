// A new work order's file: the next `wo-NN-<slug>.md` in `<task>/work-orders/`, status `ready`,
// no dependencies, and a "Files to touch" section to fill in. Never overwrites a file.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** `Name the row` → `name-the-row` (letters, digits and dashes; `work` when nothing is left). */
export function slugOf(title: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug === '' ? 'work' : slug;
}

/** The next free number among `wo-NN-*.md` names (1 in an empty folder). */
export function nextNumber(names: readonly string[]): number {
  let highest = 0;
  for (const name of names) {
    const m = /^wo-(\d+)-.*\.md$/.exec(name);
    if (m) highest = Math.max(highest, Number(m[1]));
  }
  return highest + 1;
}

export function workOrderText(task: string, n: number, title: string): string {
  const id = `local:${task}#wo-${String(n).padStart(2, '0')}`;
  const oneLine = title.replace(/\s+/g, ' ').trim();
  return [
    '---',
    `id: ${id}`,
    `title: ${JSON.stringify(oneLine)}`,
    'status: ready',
    'blocked_by: []',
    '---',
    '## Files to touch',
    '- `path/to/file`',
    '',
    '## Acceptance',
    '- a command whose exit code says the work is done',
    '',
  ].join('\n');
}

/** Writes the next work order of the task folder `taskDir`; returns its path. */
export function createWorkOrder(taskDir: string, title: string): string {
  const dir = join(taskDir, 'work-orders');
  mkdirSync(dir, { recursive: true });
  const n = nextNumber(readdirSync(dir));
  const path = join(dir, `wo-${String(n).padStart(2, '0')}-${slugOf(title)}.md`);
  if (existsSync(path)) throw new Error(`${path} already exists`);
  writeFileSync(path, workOrderText(basename(taskDir), n, title), { flag: 'wx' });
  return path;
}
