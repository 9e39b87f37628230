// The filesystem recipe (reference §2): sha256 over the path-sorted (path, content-hash) pairs of
// the in-scope files. Content only — never modification times. Symlinks are captured by target.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, readlinkSync, statSync, type BigIntStats, type Dirent } from 'node:fs';
import { extname, join } from 'node:path';
import type { Capture, CaptureOptions } from './capture-types';
import { ALWAYS_EXCLUDED, FS_ALWAYS_EXCLUDED, FS_DEFAULT_EXCLUDED, PROSE_EXTENSIONS } from './exclusions';
import { pathFilter } from './glob';

/**
 * Files (or folders) handled between two yields to the event loop. Synchronous reads of small
 * files are ~10× faster than fs/promises here (no thread-pool round trip per open/read/close);
 * yielding every batch (a few ms of work) keeps the extension host responsive all the same.
 */
const BATCH = 256;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function walk(root: string, skipNames: Set<string>): Promise<string[]> {
  const out: string[] = [];
  const pending = [''];
  let sinceYield = 0;
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    if (++sinceYield >= BATCH) {
      sinceYield = 0;
      await yieldToLoop();
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true });
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

function readAndHash(root: string, rel: string): { hash: string; words?: number } | null {
  const abs = join(root, rel);
  try {
    const bytes = readFileSync(abs);
    const hash = createHash('sha256').update(bytes).digest('hex');
    return PROSE_EXTENSIONS.includes(extname(rel).toLowerCase())
      ? { hash, words: wordCount(bytes.toString('utf8')) }
      : { hash };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null; // deleted while we walked
    if (code === 'EISDIR' || code === 'ELOOP' || code === 'ENOTDIR') {
      let target = '?';
      try {
        target = readlinkSync(abs);
      } catch {
        // not a link after all: a folder reached through a link
      }
      return { hash: `link:${target}` };
    }
    throw error;
  }
}

/**
 * Content hashes are reused within a process (a repeat captures before and after every run) when
 * a file's size, inode, mtime and ctime (nanoseconds) are all unchanged — and only for files last
 * modified well before the capture that hashed them, so a same-size rewrite within one timestamp
 * tick (coarse file systems) is never missed: git's "racily clean" rule. The state itself is
 * still the content hashes; times only decide whether a file must be read again.
 */
interface CachedHash {
  size: bigint;
  ino: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  hash: string;
  words?: number;
}
const hashCache = new Map<string, CachedHash>();
const RACY_MARGIN_NS = 2_000_000_000n;
const CACHE_LIMIT = 200_000;

function hashOne(root: string, rel: string, startedNs: bigint): { hash: string; words?: number } | null {
  const abs = join(root, rel);
  let stat: BigIntStats;
  try {
    stat = statSync(abs, { bigint: true });
  } catch {
    hashCache.delete(abs);
    return readAndHash(root, rel);
  }
  const cached = hashCache.get(abs);
  if (
    cached &&
    cached.size === stat.size &&
    cached.ino === stat.ino &&
    cached.mtimeNs === stat.mtimeNs &&
    cached.ctimeNs === stat.ctimeNs
  ) {
    return cached.words === undefined ? { hash: cached.hash } : { hash: cached.hash, words: cached.words };
  }
  const got = readAndHash(root, rel);
  const settled = stat.mtimeNs < startedNs - RACY_MARGIN_NS && stat.ctimeNs < startedNs - RACY_MARGIN_NS;
  if (got && settled && stat.isFile()) {
    if (hashCache.size >= CACHE_LIMIT) hashCache.clear();
    hashCache.set(abs, {
      size: stat.size,
      ino: stat.ino,
      mtimeNs: stat.mtimeNs,
      ctimeNs: stat.ctimeNs,
      ...got,
    });
  } else hashCache.delete(abs);
  return got;
}

export async function captureFs(options: CaptureOptions): Promise<Capture> {
  const { root, scope, exclude } = options;
  const defaults = scope.length === 0 ? FS_DEFAULT_EXCLUDED : [];
  const skipNames = new Set([...ALWAYS_EXCLUDED, ...FS_ALWAYS_EXCLUDED, ...defaults]);
  const inScope = pathFilter(scope, exclude);
  const paths = (await walk(root, skipNames)).filter(inScope).sort();
  const files = new Map<string, string>();
  const words = new Map<string, number>();
  const digest = createHash('sha256');
  const startedNs = BigInt(Date.now()) * 1_000_000n;
  for (let i = 0; i < paths.length; i++) {
    if (i > 0 && i % BATCH === 0) await yieldToLoop();
    const rel = paths[i] as string;
    const got = hashOne(root, rel, startedNs);
    if (got === null) continue;
    files.set(rel, got.hash);
    if (got.words !== undefined) words.set(rel, got.words);
    digest.update(`${rel}\0${got.hash}\n`);
  }
  return { recipe: 'fs', key: `fs:${digest.digest('hex')}`, files, words };
}
