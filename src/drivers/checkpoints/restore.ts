// The file side of a restore: the facts the engine's refusal rules need, the changes between
// two checkpoint trees, and writing them. Files are written by `checkout-index` from a private
// index that holds the checkpoint's tree (symlinks are written as links, a symlinked parent
// folder is replaced rather than followed); a file added since is removed only after checking
// that no folder on its way is a symlink, so nothing outside the work tree is ever touched.
import { existsSync, lstatSync, mkdtempSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isObjectId, type RestoreFacts, type TreeChange } from '../../engine/checkpoints/rules';
import { git, gitOk } from './git';
import { CheckpointRefused, type CheckpointWorkspace } from './workspace';

const IN_PROGRESS: [string, string][] = [
  ['MERGE_HEAD', 'merge'],
  ['rebase-merge', 'rebase'],
  ['rebase-apply', 'rebase'],
  ['CHERRY_PICK_HEAD', 'cherry-pick'],
  ['REVERT_HEAD', 'revert'],
];

export function restoreFacts(ws: CheckpointWorkspace, headThen: string | null, force: boolean): RestoreFacts {
  if (ws.shadow) return { inProgress: null, headNow: null, headThen, staged: false, shadow: true, force };
  const found = IN_PROGRESS.find(([name]) => existsSync(join(ws.gitDir, name)));
  const headNow = ws.head; // read when the workspace was opened, just before
  const staged = headNow
    ? git(ws.place, ['diff-index', '--cached', '--quiet', '--no-ext-diff', '--end-of-options', headNow, '--'])
        .code !== 0
    : gitOk(ws.place, ['ls-files', '-z']).length > 0;
  return { inProgress: found ? found[1] : null, headNow, headThen, staged, shadow: false, force };
}

/** `git diff-tree -r` from the tree `now` to the tree `target`, one entry per path. */
export function treeChanges(ws: CheckpointWorkspace, now: string, target: string): TreeChange[] {
  if (!isObjectId(now) || !isObjectId(target)) throw new CheckpointRefused('not an object id');
  const out = gitOk(ws.place, [
    'diff-tree',
    '-r',
    '-z',
    '--no-renames',
    '--no-ext-diff',
    '--end-of-options',
    now,
    target,
  ]);
  const parts = out.toString('utf8').split('\0');
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i]!;
    const path = parts[i + 1]!;
    const [modeNow, mode, , , status] = meta.replace(/^:/, '').split(' ');
    if (!modeNow || !mode || !status) continue;
    changes.push({ status: status.charAt(0), mode, modeNow, path });
  }
  return changes;
}

/** Whether something (a file, a link, a folder) is at `path` in the work tree. */
export function existsInWorkTree(ws: CheckpointWorkspace, path: string): boolean {
  try {
    lstatSync(join(ws.place.top, path));
    return true;
  } catch {
    return false;
  }
}

/** Writes `paths` as the checkpoint `commit` has them, and removes `remove`. */
export function applyRestore(
  ws: CheckpointWorkspace,
  commit: string,
  write: string[],
  remove: string[],
): void {
  if (!isObjectId(commit)) throw new CheckpointRefused('not an object id');
  for (const path of remove) removeInside(ws.place.top, path);
  if (write.length === 0) return;
  const dir = mkdtempSync(join(tmpdir(), 'loop-ledger-restore-'));
  const index = join(dir, 'index');
  try {
    gitOk(ws.place, ['read-tree', '--end-of-options', commit], { index });
    gitOk(ws.place, ['checkout-index', '--force', '-z', '--stdin'], {
      index,
      input: write.join('\0') + '\0',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Removes a file or link of the work tree; refused when a folder on its way is a link. */
function removeInside(top: string, path: string): void {
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw new CheckpointRefused(`not a path inside the work tree: ${JSON.stringify(path)}`);
  }
  let dir = top;
  for (const segment of segments.slice(0, -1)) {
    dir = join(dir, segment);
    const stat = lstatOrNull(dir);
    if (stat === null) return; // already gone
    if (!stat.isDirectory()) return; // a link or file now: the path is not there to remove
  }
  const full = join(top, path);
  const stat = lstatOrNull(full);
  if (stat === null || stat.isDirectory()) return;
  unlinkSync(full);
  // Folders the removal left empty go too (rmdir refuses a folder that still holds anything).
  for (let d = dirname(full); d.length > top.length && d.startsWith(top); d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      break;
    }
  }
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
