// What a `loop-ledger-checkpoint:` URI may name, checked without `vscode` so it is unit-tested:
// a workspace folder, a full hex commit id and a plain path inside the repository. Anything else
// is refused before git runs.
import { join } from 'node:path';
import type { GitPlace } from '../../app/checkpoints/browse';
import { isObjectId } from '../../engine/checkpoints/rules';

export interface CheckpointQuery {
  root: string;
  commit: string;
  shadow: boolean;
}

/** The checked query, or why it is refused. */
export function checkQuery(
  rawQuery: string,
  rawPath: string,
  roots: readonly string[],
): (CheckpointQuery & { path: string }) | { refused: string } {
  let value: unknown;
  try {
    value = JSON.parse(rawQuery);
  } catch {
    return { refused: 'the query is not JSON' };
  }
  const q = value as Partial<CheckpointQuery> | null;
  if (typeof q?.root !== 'string' || !roots.includes(q.root))
    return { refused: 'the root is not a workspace folder' };
  if (!isObjectId(q.commit)) return { refused: 'the commit is not a full object id' };
  const path = rawPath.replace(/^\//, '');
  const segments = path.split('/');
  if (path.includes('\0') || segments.some((s) => s === '' || s === '.' || s === '..')) {
    return { refused: 'the path is not a plain path inside the repository' };
  }
  return { root: q.root, commit: q.commit, shadow: q.shadow === true, path };
}

export function placeOf(root: string, shadow: boolean): GitPlace {
  return shadow ? { top: root, shadowGitDir: join(root, '.loop', 'checkpoints.git') } : { top: root };
}
