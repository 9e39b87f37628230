// The filesystem recipe: sha256 over the path-sorted (path, content-hash) pairs of
// the in-scope files. Content only — never modification times. Symlinks are captured by target.
import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  openSync,
  readSync,
  readdirSync,
  readlinkSync,
  statSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { extname, join, sep } from 'node:path';
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

/** One buffer for every small file (most are): no allocation per read. */
const SHARED = Buffer.allocUnsafe(64 * 1024);

/**
 * One-shot sha256 (`crypto.hash`, Node ≥ 20.12): less than half the cost of a Hash object per
 * small file. The same digest either way; older Nodes take the object.
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: Buffer, encoding: 'hex') => string }).hash;
const sha256Hex = oneShot
  ? (bytes: Buffer) => oneShot('sha256', bytes, 'hex')
  : (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function hashBytes(rel: string, bytes: Buffer): { hash: string; words?: number } {
  const hash = sha256Hex(bytes);
  return PROSE_EXTENSIONS.includes(extname(rel).toLowerCase())
    ? { hash, words: wordCount(bytes.toString('utf8')) }
    : { hash };
}

/** What a path that cannot be read as a file is captured as (a link to a folder, a loop). */
function linkHash(abs: string): { hash: string } {
  let target = '?';
  try {
    target = readlinkSync(abs);
  } catch {
    // not a link after all: a folder reached through a link
  }
  return { hash: `link:${target}` };
}

/**
 * Reads and hashes one file through one descriptor: open, fstat, read, close (the size from
 * fstat picks the shared buffer or one of the file's size). null = deleted while we walked.
 */
function readAndHash(
  abs: string,
  rel: string,
): { got: { hash: string; words?: number }; stat?: Stats } | null {
  let fd: number;
  try {
    fd = openSync(abs, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP' || code === 'ENOTDIR') return { got: linkHash(abs) };
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return { got: linkHash(abs) };
    // A file that grows while read is read to its end: the state is what was read.
    let buffer = stat.size < SHARED.length ? SHARED : Buffer.allocUnsafe(stat.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return { got: hashBytes(rel, buffer.subarray(0, length)), stat };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') return { got: linkHash(abs) };
    throw error;
  } finally {
    closeSync(fd);
  }
}

/**
 * Content hashes are reused within a process (a repeat captures before and after every run) when
 * a file's size, inode, mtime and ctime are all unchanged — and only for files last modified well
 * before the capture that hashed them, so a same-size rewrite within one timestamp tick (coarse
 * file systems) is never missed: git's "racily clean" rule. The state itself is still the content
 * hashes; times only decide whether a file must be read again. Times are compared as the
 * millisecond doubles `stat` gives (sub-microsecond steps at today's dates): BigInt stats cost a
 * dozen allocations per file, and the racy margin covers what a double cannot tell apart.
 */
interface CachedHash {
  size: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  hash: string;
  words?: number;
}
const hashCache = new Map<string, CachedHash>();
const RACY_MARGIN_MS = 2000;
const CACHE_LIMIT = 200_000;

function hashOne(abs: string, rel: string, startedMs: number): { hash: string; words?: number } | null {
  const cached = hashCache.get(abs);
  // Nothing to reuse (a first capture): read at once, and keep what the descriptor's fstat saw.
  if (cached === undefined) return readAndKeep(abs, rel, startedMs, undefined);
  const stat = statSync(abs, { throwIfNoEntry: false });
  if (
    stat &&
    cached.size === stat.size &&
    cached.ino === stat.ino &&
    cached.mtimeMs === stat.mtimeMs &&
    cached.ctimeMs === stat.ctimeMs
  ) {
    return cached.words === undefined ? { hash: cached.hash } : { hash: cached.hash, words: cached.words };
  }
  return readAndKeep(abs, rel, startedMs, stat);
}

/**
 * Reads and hashes; keeps the hash for reuse when the file settled before this capture began and,
 * if a path stat came first, the descriptor read the same file it saw.
 */
function readAndKeep(
  abs: string,
  rel: string,
  startedMs: number,
  before: Stats | undefined,
): { hash: string; words?: number } | null {
  const read = readAndHash(abs, rel);
  const seen = read?.stat;
  const stat = before ?? seen;
  const settled =
    stat !== undefined &&
    seen !== undefined &&
    seen.ino === stat.ino &&
    seen.size === stat.size &&
    seen.mtimeMs === stat.mtimeMs &&
    seen.ctimeMs === stat.ctimeMs &&
    stat.mtimeMs < startedMs - RACY_MARGIN_MS &&
    stat.ctimeMs < startedMs - RACY_MARGIN_MS;
  if (read && settled && seen?.isFile()) {
    if (hashCache.size >= CACHE_LIMIT) hashCache.clear();
    hashCache.set(abs, {
      size: stat.size,
      ino: stat.ino,
      mtimeMs: stat.mtimeMs,
      ctimeMs: stat.ctimeMs,
      ...read.got,
    });
  } else hashCache.delete(abs);
  return read?.got ?? null;
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
  const startedMs = Date.now();
  const prefix = root.endsWith(sep) ? root : root + sep;
  for (let i = 0; i < paths.length; i++) {
    if (i > 0 && i % BATCH === 0) await yieldToLoop();
    const rel = paths[i] as string;
    const got = hashOne(prefix + rel, rel, startedMs);
    if (got === null) continue;
    files.set(rel, got.hash);
    if (got.words !== undefined) words.set(rel, got.words);
    digest.update(`${rel}\0${got.hash}\n`);
  }
  return { recipe: 'fs', key: `fs:${digest.digest('hex')}`, files, words };
}
