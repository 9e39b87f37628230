// The build handle (`compile collect-handle`): built purely from git and the atom's own control
// flags — never from the builder's transcript. checkpoint_after is HEAD iff the build changed
// something, so `checkpoint_after == null ⟺ produced_changes == false` holds by construction.
import { changedPaths, diffQuiet, head, isWorkTree, looksLikeSha } from './git';

export interface HandleFlags {
  checkpointBefore: string;
  dispatched: boolean;
  overrideUsed: boolean;
  haltReason: string;
  buildReturned: boolean;
}

export interface BuildHandle {
  wo_id: unknown;
  dispatched: boolean;
  override_used: boolean;
  halt_reason: string | null;
  tree: string;
  checkpoint_before: string | null;
  checkpoint_after: string | null;
  produced_changes: boolean;
  artifacts: string[];
  build_returned: boolean;
}

export function collectHandle(
  worktree: string,
  woId: unknown,
  flags: HandleFlags,
  warn: (line: string) => void,
): BuildHandle {
  let current: string | undefined;
  const gitOk = isWorkTree(worktree);
  if (gitOk) current = head(worktree);
  else warn(`wo-compile collect-handle: ${worktree} is not a git work tree — degraded handle`);
  let cpb = flags.checkpointBefore === '' ? (current ?? '') : flags.checkpointBefore;
  let valid = false;
  if (cpb.includes('\n')) {
    warn('wo-compile collect-handle: checkpoint-before contains a newline — ignoring (no baseline)');
    cpb = '';
  } else if (looksLikeSha(cpb)) valid = true;
  else {
    if (cpb !== '')
      warn('wo-compile collect-handle: checkpoint-before is not a sha — ignoring (no baseline)');
    cpb = '';
  }
  let produced = false;
  let after: string | null = null;
  let artifacts: string[] = [];
  if (gitOk && valid && current) {
    const code = diffQuiet(worktree, cpb, current);
    if (code === 1) {
      produced = true;
      after = current;
      artifacts = changedPaths(worktree, cpb, current) ?? [];
    } else if (code !== 0)
      warn('wo-compile collect-handle: git diff failed (bad ref?) — reporting no changes');
  }
  return {
    wo_id: woId,
    dispatched: flags.dispatched,
    override_used: flags.overrideUsed,
    halt_reason: flags.haltReason === '' ? null : flags.haltReason,
    tree: worktree,
    checkpoint_before: cpb === '' ? null : cpb,
    checkpoint_after: after,
    produced_changes: produced,
    artifacts,
    build_returned: flags.buildReturned,
  };
}
