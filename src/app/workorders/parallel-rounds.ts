// `wo run --parallel [--max N]`: the parallel sibling. Each round: kill switch and budget,
// reconcile, a batch from `parallel-batch` (disjoint "Files to touch", at most N), ROUND_BASE =
// the integration HEAD, a worktree per batched work order on branch `wo-NN-<slug>`, dispatch at
// ROUND_BASE, concurrent builds, then — in batch order — review, critique and verdict; CLEAN is
// merged back (`merge --no-ff`), drift-checked against the batch's declared files, then `done`.
// Every branch and worktree of a round is removed when the round ends.
import { join } from 'node:path';
import { parallelBatch } from '../../engine/workorders/batch';
import { sidecars } from '../../engine/workorders/ids';
import { collect } from '../../engine/workorders/run-state';
import { undeclaredPaths } from '../../engine/workorders/harness-build';
import { readText, woFacts, woFileNames, writeJsonAtomic } from '../../drivers/workorders/files';
import { changedPaths, git, head, isAncestor, resetHard } from '../../drivers/workorders/git';
import { mergeBack } from '../../drivers/workorders/merge-back';
import { reconcileRow } from '../../engine/workorders/reconcile';
import type { RunContext } from './context';
import { build, settle, type Attempt, type PhaseEnd } from './phases';
import { entries, from, prepareAttempt, stopReason } from './queue-steps';
import { runObject, transition } from './steps';

interface Member {
  a: Attempt;
  branch: string;
  path: string;
  ctx: RunContext;
}

function branchOf(fileName: string): string {
  return fileName.replace(/\.md$/, '');
}

function worktreePath(ctx: RunContext, id: string): string {
  return join(ctx.task, '.wo-worktrees', id);
}

/** Removes a round's worktree and branch (also the leftovers of a crashed round). */
function prune(ctx: RunContext, path: string, branch: string): void {
  git(ctx.worktree, ['worktree', 'remove', '--force', path]);
  git(ctx.worktree, ['worktree', 'prune']);
  git(ctx.worktree, ['branch', '-D', '--end-of-options', branch]);
}

/** Recovery before a parallel round: an in_progress work order is done iff its build is already merged, else reworked. */
function recoverParallel(ctx: RunContext): void {
  const current = head(ctx.worktree);
  for (const e of entries(ctx)) {
    prune(ctx, worktreePath(ctx, e.row.wo_id), branchOf(e.fileName));
    if (e.row.terminal || e.row.status !== 'in_progress') continue;
    const after = e.row.checkpoint_after;
    const merged =
      typeof after === 'string' && current !== undefined && isAncestor(ctx.worktree, after, current);
    transition(join(ctx.dir, e.fileName), merged ? 'done' : 'needs_rework');
    ctx.ledger.close(e.row.wo_id, merged ? 'complete' : 'revise', {
      note: merged ? 'recovered: already merged' : 'recovered: crashed before merge-back',
    });
    ctx.log(`wo-run recover wo=${e.row.wo_id} action=${merged ? 'merged_done' : 'requeue'}`);
  }
}

/** CLEAN: merge back, check drift against the batch's declared files, record the merge commit. */
function mergeMember(ctx: RunContext, m: Member, declared: string[]): string | undefined {
  const before = head(ctx.worktree);
  if (!before) return 'merge_back_error';
  const merged = mergeBack(ctx.worktree, m.branch);
  ctx.log(
    `wo-merge-back branch=${m.branch} merged=${merged.exitCode === 0} reason=${merged.exitCode === 0 ? 'null' : merged.exitCode === 3 ? 'merge_conflict' : merged.payload.ok ? '' : merged.payload.error}`,
  );
  if (merged.exitCode === 3) return 'merge_conflict';
  if (merged.exitCode !== 0) return 'merge_back_error';
  const after = head(ctx.worktree) ?? before;
  const drift = undeclaredPaths(changedPaths(ctx.worktree, before, after) ?? [], declared);
  if (drift.length > 0) {
    resetHard(ctx.worktree, before);
    return 'undeclared_file_drift';
  }
  const runPath = join(ctx.dir, sidecars(m.a.id).run);
  const run = runObject(ctx, m.a.id);
  const result = collect(m.a.id, readText(runPath), {
    overrideUsed: String(run.override_used === true),
    haltReason: 'null',
    buildReturned: String(run.build_returned === true),
    checkpointAfter: after,
  });
  if (result.write) writeJsonAtomic(runPath, result.write);
  return undefined;
}

async function round(ctx: RunContext, max: number): Promise<'more' | 'idle' | 'cancelled'> {
  const inputs = woFileNames(ctx.dir).map((fileName) => {
    const facts = woFacts(ctx.dir, fileName);
    return { fileName, text: facts.text, row: reconcileRow(facts) };
  });
  const plan = parallelBatch(ctx.dir, inputs, max);
  ctx.log(
    `wo-parallel-batch ready=${plan.ready_total} batch=${plan.batch.length} deferred=${plan.deferred.length} max=${max}`,
  );
  if (plan.batch.length === 0) return 'idle';
  const base = head(ctx.worktree);
  const byId = new Map(entries(ctx).map((e) => [e.row.wo_id, e]));
  const members: Member[] = [];
  for (const item of plan.batch) {
    const entry = byId.get(item.wo_id);
    if (!entry) continue;
    const a = prepareAttempt(ctx, entry, base);
    if (a === 'terminal') continue;
    const branch = branchOf(entry.fileName);
    const path = worktreePath(ctx, a.id);
    prune(ctx, path, branch);
    const added = git(ctx.worktree, ['worktree', 'add', '-q', '-b', branch, path, a.checkpoint]);
    const member = { a, branch, path, ctx: { ...ctx, worktree: path } };
    if (added.code !== 0) {
      settle(ctx, a, () => 'worktree_unavailable');
      continue;
    }
    members.push(member);
  }
  const built: PhaseEnd[] = await Promise.all(members.map((m) => build(m.ctx, m.a)));
  const declared = plan.batch.flatMap((b) => b.files);
  let cancelled = false;
  for (const [i, m] of members.entries()) {
    const end = built[i];
    if (cancelled || end === 'cancelled') {
      cancelled = true;
      continue; // left in_progress: the next run's recovery requeues it
    }
    if (end === 'terminal') settle(m.ctx, m.a);
    else {
      const reviewed = await from(m.ctx, m.a, 'review', () => mergeMember(ctx, m, declared));
      if (reviewed === 'cancelled') cancelled = true;
    }
  }
  for (const m of members) if (!cancelled) prune(ctx, m.path, m.branch);
  return cancelled ? 'cancelled' : 'more';
}

/** Rounds until nothing is batchable, a stop, or a cancel. */
export async function runRounds(
  ctx: RunContext,
  max: number,
): Promise<{ stop?: string; cancelled: boolean }> {
  recoverParallel(ctx);
  for (;;) {
    const stop = stopReason(ctx);
    if (stop) return { stop, cancelled: false };
    const r = await round(ctx, max);
    if (r === 'cancelled') return { cancelled: true };
    if (r === 'idle') return { cancelled: false };
  }
}
