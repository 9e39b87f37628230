// The git recipe: (HEAD, sha256 of `status --porcelain=v1 -z`, sha256 of
// `diff HEAD`, sha256 of the untracked files' contents, path-sorted). It sees commits, staging,
// edits and new files. Before the first commit HEAD is empty and the diff is against the empty tree.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Capture, CaptureOptions } from './capture-types';
import { ALWAYS_EXCLUDED } from './exclusions';
import { gitBytes, gitHash, gitText } from './git';
import { gitPathspecs } from './glob';

/** git's well-known empty tree: what `diff` compares against when there is no HEAD yet. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

async function contentHash(root: string, rel: string): Promise<string> {
  try {
    return createHash('sha256')
      .update(await readFile(join(root, rel)))
      .digest('hex');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'deleted' : `unreadable:${code ?? 'error'}`;
  }
}

/** `status -z` entries: "XY path", renames/copies followed by their source path. */
function statusEntries(bytes: Buffer): { code: string; path: string; source?: string }[] {
  const parts = bytes.toString('utf8').split('\0');
  const out: { code: string; path: string; source?: string }[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (part.length < 4) continue;
    const code = part.slice(0, 2);
    if (code[0] === 'R' || code[0] === 'C') {
      out.push({ code, path: part.slice(3), source: parts[i + 1] ?? '' });
      i++;
    } else out.push({ code, path: part.slice(3) });
  }
  return out;
}

/** sha256 of no output: `diff HEAD` of a tree with no tracked change. */
const EMPTY_SHA256 = createHash('sha256').digest('hex');

/** Beyond this many bytes of paths, the command line could reach the system's limit. */
const NARROW_DIFF_MAX_CHARS = 64 * 1024;

/**
 * `diff HEAD` over the whole scope prints a change only for a tracked path that differs from HEAD,
 * and every such path is in `status` (in the index column, the work-tree column, or both; a
 * rename's source too). So the diff is run over exactly those paths (literal, from the repository
 * top) — the same bytes without a second walk of the whole tree — and not at all when there are
 * none. Many changed paths (a long command line) take the whole-scope diff.
 */
function diffHash(
  root: string,
  head: string,
  specs: string[],
  entries: { code: string; path: string; source?: string }[],
): Promise<string> {
  const tracked = entries
    .filter((e) => e.code !== '??' && e.code !== '!!')
    .flatMap((e) => (e.source !== undefined ? [e.path, e.source] : [e.path]));
  if (tracked.length === 0) return Promise.resolve(EMPTY_SHA256);
  const narrow = tracked.map((p) => `:(top,literal)${p}`);
  const chars = narrow.reduce((n, p) => n + p.length + 1, 0);
  const paths = chars <= NARROW_DIFF_MAX_CHARS ? ['--', ...narrow] : specs;
  return gitHash(root, ['diff', '--no-ext-diff', '--no-textconv', '--binary', head || EMPTY_TREE, ...paths]);
}

/**
 * Two git processes beside each other, then one: `status` runs beside `rev-parse HEAD`; `diff`
 * runs after both over the paths status reported (see diffHash). The untracked files are status's
 * `??` entries (the same set as `ls-files --others --exclude-standard`, which an earlier version
 * ran as a fourth process), so each is hashed once.
 */
export async function captureGit(options: CaptureOptions): Promise<Capture> {
  const { root } = options;
  const specs = ['--', ...gitPathspecs(options.scope, options.exclude, ALWAYS_EXCLUDED)];
  const [head, status] = await Promise.all([
    gitText(root, ['rev-parse', '--verify', '-q', 'HEAD'], true).then((t) => (t ?? '').trim()),
    gitBytes(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all', ...specs]) as Promise<Buffer>,
  ]);
  const dirty = statusEntries(status);
  const [diff, hashes] = await Promise.all([
    diffHash(root, head, specs, dirty),
    Promise.all(dirty.map((e) => contentHash(root, e.path))),
  ]);
  const files = new Map<string, string>();
  dirty.forEach((e, i) => files.set(e.path, `${e.code}:${hashes[i]}`));
  const untracked = dirty
    .filter((e) => e.code === '??')
    .map((e) => e.path)
    .sort();
  const untrackedDigest = createHash('sha256');
  for (const rel of untracked)
    untrackedDigest.update(`${rel}\0${(files.get(rel) ?? '').replace(/^..:/, '')}\n`);
  const statusHash = createHash('sha256').update(status).digest('hex');
  const key = `git:${head || '-'}:${statusHash}:${diff}:${untrackedDigest.digest('hex')}`;
  return { recipe: 'git', key, files, words: new Map(), head };
}
