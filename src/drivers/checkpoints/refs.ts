// The refs under refs/loop-ledger/: written after their commit is complete (so a ref always
// names a whole checkpoint), listed per session, deleted one by one. Every ref passed here was built or
// checked by the engine's rules (checkpointRef / readCheckpointKey) and goes after --end-of-options.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isObjectId, REF_ROOT, sessionRefPrefix } from '../../engine/checkpoints/rules';
import { git, gitOk, type GitResult } from './git';
import { gitStep, type Program } from './program';
import { CheckpointRefused, type CheckpointWorkspace } from './workspace';

function ours(ref: string): string {
  if (!ref.startsWith(REF_ROOT) || ref.includes('..') || /[\s~^:?*[\\]/.test(ref)) {
    throw new CheckpointRefused(`not a Loop Ledger checkpoint ref: ${JSON.stringify(ref.slice(0, 120))}`);
  }
  return ref;
}

/**
 * Points `ref` at `commit`. Called under the ledger's lock for an iteration number no record has
 * yet, so a ref already there is the leftover of a writer killed before its record was saved,
 * and is replaced.
 */
export function createRef(ws: CheckpointWorkspace, ref: string, commit: string): void {
  if (!isObjectId(commit)) throw new CheckpointRefused(`not an object id: ${String(commit).slice(0, 80)}`);
  const r = git(ws.place, ['update-ref', '--no-deref', '--end-of-options', ours(ref), commit]);
  if (r.code !== 0) {
    throw new CheckpointRefused(
      `checkpoint ref ${ref} could not be created: ${r.stderr.trim().split('\n')[0]}`,
    );
  }
}

/**
 * Creates `ref` at `commit` only when no such ref exists (git checks and creates it atomically,
 * under its own ref lock): true when this call created it. Used before the ledger's lock, for the
 * iteration number the record is expected to get, so a ref another writer made is never replaced
 * from outside the lock.
 */
export function* createRefIfAbsentProgram(
  ws: CheckpointWorkspace,
  ref: string,
  commit: string,
): Program<boolean> {
  if (!isObjectId(commit)) throw new CheckpointRefused(`not an object id: ${String(commit).slice(0, 80)}`);
  // An empty old value: "the ref must not exist yet", whatever the repository's hash length.
  const r: GitResult = yield* gitStep(ws.place, [
    'update-ref',
    '--no-deref',
    '--end-of-options',
    ours(ref),
    commit,
    '',
  ]);
  return r.code === 0;
}

/**
 * What the loose ref file of `ref` names, read from disk without running git (null: no loose
 * file, e.g. packed by a `git gc`, or a ref store without files). Read under the ledger's lock to
 * confirm that the ref created before it still names this checkpoint; any doubt makes the caller
 * create the ref again there.
 */
export function looseRefCommit(ws: CheckpointWorkspace, ref: string): string | null {
  try {
    const text = readFileSync(join(ws.commonDir, ...ours(ref).split('/')), 'utf8').trim();
    return isObjectId(text) ? text : null;
  } catch {
    return null;
  }
}

/** Deletes `ref` only while it still names `commit` (a ref another writer took over stays). */
export function deleteRefIfStill(ws: CheckpointWorkspace, ref: string, commit: string): void {
  if (!isObjectId(commit)) return;
  git(ws.place, ['update-ref', '--no-deref', '-d', '--end-of-options', ours(ref), commit]);
}

/** The commit `ref` names, or null when it does not exist. */
export function refCommit(ws: CheckpointWorkspace, ref: string): string | null {
  const r = git(ws.place, ['rev-parse', '--quiet', '--verify', '--end-of-options', `${ours(ref)}^{commit}`]);
  const id = r.stdout.toString('utf8').trim();
  return r.code === 0 && isObjectId(id) ? id : null;
}

/** Every checkpoint ref of `session` with its commit. */
export function sessionRefs(ws: CheckpointWorkspace, session: string): { ref: string; commit: string }[] {
  const out = gitOk(ws.place, [
    'for-each-ref',
    '--format=%(objectname) %(refname)',
    '--end-of-options',
    ours(sessionRefPrefix(session)),
  ]);
  return out
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => ({ commit: l.slice(0, l.indexOf(' ')), ref: l.slice(l.indexOf(' ') + 1) }))
    .filter((r) => isObjectId(r.commit) && r.ref.startsWith(sessionRefPrefix(session)));
}

export function deleteRef(ws: CheckpointWorkspace, ref: string, commit: string): void {
  gitOk(ws.place, ['update-ref', '--no-deref', '-d', '--end-of-options', ours(ref), commit]);
}
