// `merge-back`: one work order's branch merged locally (`merge --no-ff`) into the checked-out
// integration branch. Never a push, a PR, a reset or a force: a conflict is aborted so the tree
// is left clean at its pre-merge HEAD.
import { git, head, isWorkTree } from './git';

export type MergeBackResult =
  | { exitCode: 0; payload: { ok: true; merged: true; branch: string; sha: string; reason: null } }
  | {
      exitCode: 3;
      payload: {
        ok: true;
        merged: false;
        branch: string;
        sha: string;
        reason: 'merge_conflict';
        conflicts: string[];
      };
    }
  | { exitCode: 2; payload: { ok: false; error: string } };

export function mergeBack(dir: string, branch: string): MergeBackResult {
  const refuse = (error: string): MergeBackResult => ({ exitCode: 2, payload: { ok: false, error } });
  if (!dir || !branch) return refuse('usage');
  if (!isWorkTree(dir)) return refuse('not_a_work_tree');
  if (git(dir, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`]).code !== 0)
    return refuse('branch_not_found');
  if (git(dir, ['status', '--porcelain']).stdout.trim() !== '') return refuse('dirty_tree');
  const before = head(dir) ?? '';
  const merged = git(dir, [
    '-c',
    'user.name=loop-ledger',
    '-c',
    'user.email=loop-ledger@localhost',
    'merge',
    '--no-ff',
    '--no-edit',
    `refs/heads/${branch}`,
  ]);
  if (merged.code === 0)
    return {
      exitCode: 0,
      payload: { ok: true, merged: true, branch, sha: head(dir) ?? before, reason: null },
    };
  const conflicts = git(dir, ['diff', '--name-only', '--diff-filter=U']).stdout.split('\n').filter(Boolean);
  git(dir, ['merge', '--abort']);
  return {
    exitCode: 3,
    payload: { ok: true, merged: false, branch, sha: before, reason: 'merge_conflict', conflicts },
  };
}
