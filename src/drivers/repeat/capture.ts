// Picking a recipe, capturing, and describing a change between two captures.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { captureFs } from './capture-fs';
import { captureGit, EMPTY_TREE } from './capture-git';
import type { Capture, CaptureOptions } from './capture-types';
import { ALWAYS_EXCLUDED } from './exclusions';
import { gitText, insideWorkTree } from './git';
import { gitPathspecs } from './glob';

export type { Capture, CaptureOptions } from './capture-types';

export type RecipePick = { recipe: 'git' | 'fs' } | { ambiguous: string } | { error: string };

/** git when the root holds `.git`; fs when no repository is around; ambiguous in between. */
export async function pickRecipe(root: string, requested: 'git' | 'fs' | undefined): Promise<RecipePick> {
  if (requested === 'fs') return { recipe: 'fs' };
  const marker = existsSync(join(root, '.git'));
  const inside = await insideWorkTree(root);
  if (requested === 'git') {
    return inside ? { recipe: 'git' } : { error: `--recipe git: ${root} is not inside a git work tree` };
  }
  if (marker && inside) return { recipe: 'git' };
  if (inside) {
    return {
      ambiguous: `${root} is a folder inside a git repository, not its top: the git recipe would see commits outside it`,
    };
  }
  return { recipe: 'fs' };
}

export function capture(recipe: 'git' | 'fs', options: CaptureOptions): Promise<Capture> {
  return recipe === 'git' ? captureGit(options) : captureFs(options);
}

/** Paths whose content (or git status) differs between two captures, sorted. */
export function changedPaths(
  pre: Capture,
  post: Capture,
): { changed: string[]; added: string[]; deleted: string[] } {
  const changed: string[] = [];
  const added: string[] = [];
  const deleted: string[] = [];
  for (const [path, hash] of post.files) {
    const before = pre.files.get(path);
    if (before === undefined) added.push(path);
    else if (before !== hash) changed.push(path);
  }
  for (const path of pre.files.keys()) if (!post.files.has(path)) deleted.push(path);
  return { changed: changed.sort(), added: added.sort(), deleted: deleted.sort() };
}

function wordDelta(pre: Capture, post: Capture): number {
  let delta = 0;
  for (const [path, n] of post.words) delta += n - (pre.words.get(path) ?? 0);
  for (const [path, n] of pre.words) if (!post.words.has(path)) delta -= n;
  return delta;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export interface ChangeFacts {
  metric: string;
  files: string[];
}

/** The change metric of one iteration and the files it touched. */
export async function describeChange(
  root: string,
  options: CaptureOptions,
  pre: Capture,
  post: Capture,
): Promise<ChangeFacts> {
  if (pre.key === post.key) return { metric: '(no change)', files: [] };
  const diff = changedPaths(pre, post);
  if (post.recipe === 'fs') {
    const words = wordDelta(pre, post);
    const parts = [
      `${diff.changed.length} changed`,
      `${diff.added.length} added`,
      `${diff.deleted.length} deleted`,
    ];
    const metric = `${parts.join(', ')}${post.words.size > 0 || pre.words.size > 0 ? `; words ${words >= 0 ? '+' : ''}${words}` : ''}`;
    return { metric, files: [...new Set([...diff.changed, ...diff.added, ...diff.deleted])].sort() };
  }
  const specs = ['--', ...gitPathspecs(options.scope, options.exclude, ALWAYS_EXCLUDED)];
  const parts: string[] = [];
  const files = new Set([...diff.changed, ...diff.added, ...diff.deleted]);
  if (pre.head !== post.head) {
    const range = [pre.head || EMPTY_TREE, post.head || EMPTY_TREE];
    const stat = (
      await gitText(root, ['diff', '--no-ext-diff', '--shortstat', ...range, ...specs], true)
    )?.trim();
    parts.push(`commits: ${stat || 'no file changes'}`);
    const names =
      (await gitText(root, ['diff', '--no-ext-diff', '--name-only', '-z', ...range, ...specs], true)) ?? '';
    for (const name of names.split('\0')) if (name !== '') files.add(name);
  }
  const work = (
    await gitText(root, ['diff', '--no-ext-diff', '--shortstat', post.head || EMPTY_TREE, ...specs], true)
  )?.trim();
  if (work) parts.push(`uncommitted: ${work}`);
  const newUntracked = diff.added.filter((p) => post.files.get(p)?.startsWith('??')).length;
  if (newUntracked > 0) parts.push(`${plural(newUntracked, 'new untracked file')}`);
  if (parts.length === 0) parts.push(`${plural(files.size, 'path')} changed status`);
  return { metric: parts.join('; '), files: [...files].sort() };
}

/** Net change from START_STATE to now, in the recipe's terms. */
export async function netChange(
  root: string,
  options: CaptureOptions,
  recipe: 'git' | 'fs',
  startKey: string,
  finalKey: string,
  touched: readonly string[],
): Promise<string> {
  if (startKey === finalKey) return 'none (the final state equals the start state)';
  if (recipe === 'fs') return `${plural(new Set(touched).size, 'distinct file')} touched`;
  const startHead = startKey.split(':')[1] ?? '-';
  const base = startHead === '-' ? EMPTY_TREE : startHead;
  const specs = ['--', ...gitPathspecs(options.scope, options.exclude, ALWAYS_EXCLUDED)];
  const stat = (await gitText(root, ['diff', '--no-ext-diff', '--shortstat', base, ...specs], true))?.trim();
  return `${stat || 'no tracked-file changes'} since ${startHead === '-' ? 'the empty start' : startHead.slice(0, 12)}; ${plural(new Set(touched).size, 'distinct path')} touched`;
}
