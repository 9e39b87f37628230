// The filesystem recipe (reference §2): sha256 over the path-sorted (path, content-hash) pairs of
// the in-scope files. Content only — never modification times. Symlinks are captured by target.
import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readFile, readdir, readlink } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Capture, CaptureOptions } from './capture-types';
import { ALWAYS_EXCLUDED, FS_ALWAYS_EXCLUDED, FS_DEFAULT_EXCLUDED, PROSE_EXTENSIONS } from './exclusions';
import { pathFilter } from './glob';

/** Files read at once: enough to keep the disk busy, few enough to stay under fd limits. */
const READ_CONCURRENCY = 32;

async function walk(root: string, skipNames: Set<string>): Promise<string[]> {
  const out: string[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = await readdir(join(root, dir), { withFileTypes: true });
    } catch (error) {
      // A folder removed between listing and reading is simply not part of this state.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for (const entry of entries) {
      if (skipNames.has(entry.name)) continue;
      const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) pending.push(rel);
      else if (entry.isFile() || entry.isSymbolicLink()) out.push(rel);
    }
  }
  return out;
}

function wordCount(text: string): number {
  return (text.match(/\S+/g) ?? []).length;
}

async function hashOne(root: string, rel: string): Promise<{ hash: string; words?: number } | null> {
  const abs = join(root, rel);
  try {
    const bytes = await readFile(abs);
    const hash = createHash('sha256').update(bytes).digest('hex');
    return PROSE_EXTENSIONS.includes(extname(rel).toLowerCase())
      ? { hash, words: wordCount(bytes.toString('utf8')) }
      : { hash };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null; // deleted while we walked
    if (code === 'EISDIR' || code === 'ELOOP' || code === 'ENOTDIR') {
      return { hash: `link:${await readlink(abs).catch(() => '?')}` };
    }
    throw error;
  }
}

export async function captureFs(options: CaptureOptions): Promise<Capture> {
  const { root, scope, exclude } = options;
  const defaults = scope.length === 0 ? FS_DEFAULT_EXCLUDED : [];
  const skipNames = new Set([...ALWAYS_EXCLUDED, ...FS_ALWAYS_EXCLUDED, ...defaults]);
  const inScope = pathFilter(scope, exclude);
  const paths = (await walk(root, skipNames)).filter(inScope).sort();
  const files = new Map<string, string>();
  const words = new Map<string, number>();
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const rel = paths[next++] as string;
      const got = await hashOne(root, rel);
      if (got === null) continue;
      files.set(rel, got.hash);
      if (got.words !== undefined) words.set(rel, got.words);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, paths.length) }, worker));
  const digest = createHash('sha256');
  for (const rel of paths) {
    const hash = files.get(rel);
    if (hash !== undefined) digest.update(`${rel}\0${hash}\n`);
  }
  return { recipe: 'fs', key: `fs:${digest.digest('hex')}`, files, words };
}
