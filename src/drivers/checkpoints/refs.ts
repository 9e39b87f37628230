// The refs under refs/loop-ledger/: written after their commit is complete (so a ref always
// names a whole checkpoint), listed per session, deleted one by one. Every ref passed here was built or
// checked by the engine's rules (checkpointRef / readCheckpointKey) and goes after --end-of-options.
import { isObjectId, REF_ROOT, sessionRefPrefix } from '../../engine/checkpoints/rules';
import { git, gitOk } from './git';
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
