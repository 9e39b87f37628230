// The git recipe (reference §2): (HEAD, sha256 of `status --porcelain=v1 -z`, sha256 of
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
function statusEntries(bytes: Buffer): { code: string; path: string }[] {
  const parts = bytes.toString('utf8').split('\0');
  const out: { code: string; path: string }[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (part.length < 4) continue;
    const code = part.slice(0, 2);
    out.push({ code, path: part.slice(3) });
    if (code[0] === 'R' || code[0] === 'C') i++; // skip the source path
  }
  return out;
}

/**
 * Two git processes at a time, three in all: `status` runs beside `rev-parse HEAD`, and `diff` starts
 * once HEAD is known. The untracked files are status's `??` entries (the same set as `ls-files
 * --others --exclude-standard`, which an earlier version ran as a fourth process), so each
 * untracked file is hashed once.
 */
export async function captureGit(options: CaptureOptions): Promise<Capture> {
  const { root } = options;
  const specs = ['--', ...gitPathspecs(options.scope, options.exclude, ALWAYS_EXCLUDED)];
  const statusRun = gitBytes(root, [
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
    ...specs,
  ]) as Promise<Buffer>;
  // Settled before anything can throw, so a failing rev-parse never leaves it unhandled.
  statusRun.catch(() => undefined);
  const head = ((await gitText(root, ['rev-parse', '--verify', '-q', 'HEAD'], true)) ?? '').trim();
  const [status, diff] = await Promise.all([
    statusRun,
    gitHash(root, ['diff', '--no-ext-diff', '--no-textconv', '--binary', head || EMPTY_TREE, ...specs]),
  ]);
  const dirty = statusEntries(status);
  const files = new Map<string, string>();
  const hashes = await Promise.all(dirty.map((e) => contentHash(root, e.path)));
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
