// The file-system side of the compile grounding kernels (drift-guard, lockfile-sha): does a cited
// path exist inside the code checkout, does a file contain a fixed string, what is a file's SHA.
// Containment is judged on real paths (symlinks and `..` resolved by the OS), so a traversal, an
// absolute path or a symlink that leaves the checkout reads as missing — fail-closed.
import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { readBoundedFile } from '../../store/bounded-read';
import { LEDGER_SIZE_LIMIT } from '../../store/limits';
import { sep } from 'node:path';
import type { DriftProbe } from '../../engine/workorders/drift-guard';
import type { LockfileIo } from '../../engine/workorders/lockfile-sha';
import { isDirectory, readBytes, readText } from './files';

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The real path of `rel` under `codePath` when it exists and stays inside; else undefined. */
export function resolveUnder(codePath: string, rel: string): string | undefined {
  const root = realOrUndefined(codePath);
  // An absolute citation is taken as is (as a path join would), then judged by containment.
  const full = realOrUndefined(rel.startsWith('/') ? rel : `${codePath}/${rel}`);
  if (root === undefined || full === undefined) return undefined;
  // As the original: inside means the root itself or below `root + sep` — so a code path of `/`
  // contains nothing but itself (fail-closed; a checkout is never the whole file system).
  return full === root || full.startsWith(root + sep) ? full : undefined;
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Like `grep -F -e PATTERN`: a line contains one of the pattern's lines, as a fixed string. */
function fileContains(path: string, pattern: string): boolean {
  let text: string;
  try {
    text = readBoundedFile(path, LEDGER_SIZE_LIMIT).toString('latin1');
  } catch {
    return false;
  }
  const needles = Buffer.from(pattern, 'utf8').toString('latin1').split('\n');
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.some((line) => needles.some((needle) => line.includes(needle)));
}

export const driftProbe: DriftProbe = {
  isDirectory,
  pathPresent: (codePath, rel) => resolveUnder(codePath, rel) !== undefined,
  symbolPresent: (codePath, rel, pattern) => {
    const full = resolveUnder(codePath, rel);
    return full !== undefined && isRegularFile(full) && fileContains(full, pattern);
  },
};

export const lockfileIo: LockfileIo = {
  readText,
  fileSha: (path) => {
    try {
      const bytes = readBytes(path);
      return bytes === undefined ? undefined : createHash('sha256').update(bytes).digest('hex');
    } catch {
      return undefined;
    }
  },
};
