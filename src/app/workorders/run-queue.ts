// `wo run`: the sequential pass over a task's work orders. On entry every work order is
// reconciled from disk and crashed attempts are recovered; then, while a work order is
// processable, the next one (version order) is promoted, gated, dispatched under the cap, built,
// reviewed, critiqued and judged. The kill switch and $WO_BUDGET_CMD are checked at every
// boundary. Nothing here decides a rule: the engine does; this file sequences the steps.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { frontmatterScalar } from '../../engine/workorders/frontmatter';
import { shortId, sidecars } from '../../engine/workorders/ids';
import { nextProcessable, runEnd, type QueueEntry } from '../../engine/workorders/queue';
import { filesToTouch } from '../../engine/workorders/body';
import { crashLeftovers, dirtyBeforeBuild, disposition } from '../../engine/workorders/reconcile';
import { readText } from '../../drivers/workorders/files';
import { isoUtcSeconds } from '../../engine/utc-iso';
import { head, isAncestor, resetHard } from '../../drivers/workorders/git';
import { changedFiles, removeFiles, untrackedFiles } from '../../drivers/workorders/leftovers';
import { builderRecordPath, stopOrphanBuild } from '../../drivers/workorders/orphan-build';
import { workOrdersDir, type RunContext, type RunOptions } from './context';
import { exitGates, type ExitReport } from './exit-gates';
import { runRounds } from './parallel-rounds';
import { WoLedger, woCheckpoints } from './ledger';
import { build, settle, type Attempt, type PhaseEnd } from './phases';
import { entries, from, prepareAttempt, stopReason } from './queue-steps';
import { haltWo, runObject, transition } from './steps';

export interface RunSummary {
  task: string;
  /** `complete`: every work order done and the merge gate allows the branch; `gates_refused`: done, but not shippable. */
  outcome: 'complete' | 'gates_refused' | 'escalation' | 'stopped' | 'cancelled';
  stop_reason: string | null;
  /** The exit's task review and gates; null unless every work order is done. */
  gates: ExitReport | null;
  work_orders: {
    wo_id: string;
    status: string;
    terminal: boolean;
    halt_reason: unknown;
    attempts: unknown;
    waiting_on: string | null;
  }[];
}

/**
 * The default builder's harness refuses a dirty worktree before any agent runs: the run stops
 * there (no attempt spent, no HALT), naming the paths, instead of halting every work order left.
 */
function worktreeDirty(ctx: RunContext): string | undefined {
  if ('command' in ctx.builder) return undefined;
  const dirty = dirtyBeforeBuild(changedFiles(ctx.worktree) ?? []);
  if (dirty.length === 0) return undefined;
  const shown = dirty.slice(0, 10).join(',');
  ctx.log(`wo-run stop reason=worktree_dirty paths=${shown}${dirty.length > 10 ? ',…' : ''}`);
  return 'worktree_dirty';
}

function attemptOf(ctx: RunContext, fileName: string): Attempt {
  const path = join(ctx.dir, fileName);
  const id = shortId(fileName, frontmatterScalar(readText(path) ?? '', 'id'));
  const run = runObject(ctx, id);
  return {
    id,
    path,
    attempt: typeof run.attempts === 'number' ? run.attempts : 0,
    checkpoint: typeof run.checkpoint_before === 'string' ? run.checkpoint_before : '',
  };
}

/** Crash recovery for one reconciled row, before the queue starts. */
async function recover(ctx: RunContext, entry: QueueEntry): Promise<PhaseEnd | 'settled' | 'none'> {
  const run = runObject(ctx, entry.row.wo_id);
  const action = disposition(entry.row, entry.depsDone, run.produced_changes === false);
  const a = attemptOf(ctx, entry.fileName);
  // A build the killed runner left running would go on writing: it is stopped first, whatever
  // the row's action (nothing of an attempt's may run beside its recovery).
  const stopped = await stopOrphanBuild(ctx.dir, a.id);
  if (stopped !== undefined) ctx.log(`wo-run recover wo=${a.id} stopped_orphan_build pgid=${stopped}`);
  rmSync(builderRecordPath(ctx.dir, a.id), { force: true });
  switch (action) {
    case 'reset': {
      if (ctx.inPlace) {
        haltWo(ctx, a.id, 'in_place_crash_manual_recovery');
        ctx.ledger.close(a.id, 'escalate', {
          blocker: 'in_place_crash_manual_recovery',
          evidence: join(ctx.dir, sidecars(a.id).halt),
          next: 'reconcile the half-applied state by hand',
        });
        return 'terminal';
      }
      const current = head(ctx.worktree);
      if (
        !current ||
        !isAncestor(ctx.worktree, a.checkpoint, current) ||
        !resetHard(ctx.worktree, a.checkpoint)
      ) {
        haltWo(ctx, a.id, 'reset_target_invalid');
        return 'terminal';
      }
      // `reset --hard` keeps untracked files: what the crashed build wrote inside its own scope
      // goes too, so the rebuild starts from the checkpoint exactly (the engine names them).
      const removed = removeFiles(
        ctx.worktree,
        crashLeftovers(untrackedFiles(ctx.worktree) ?? [], filesToTouch(readText(a.path) ?? '')),
      );
      transition(a.path, 'needs_rework');
      ctx.ledger.close(a.id, 'revise', {
        note: `crashed mid-build in attempt ${a.attempt}; reset to ${a.checkpoint}`,
      });
      ctx.log(
        `wo-run recover wo=${a.id} action=reset cp=${a.checkpoint}${removed.length > 0 ? ` removed=${removed.join(',')}` : ''}`,
      );
      return 'none';
    }
    case 'resume_review':
    case 'resume_critique':
    case 'rederive_verdict':
      ctx.log(`wo-run recover wo=${a.id} action=${action} attempt=${a.attempt}`);
      ctx.ledger.ensureOpen(a.id, new Date());
      return from(
        ctx,
        a,
        action === 'resume_review' ? 'review' : action === 'resume_critique' ? 'critique' : 'verdict',
      );
    default:
      return 'none';
  }
}

/** One fresh attempt: promote, gate, dispatch under the cap, then every phase. */
async function attempt(ctx: RunContext, entry: QueueEntry): Promise<PhaseEnd | 'settled'> {
  const a = prepareAttempt(ctx, entry, head(ctx.worktree));
  if (a === 'terminal') return a;
  const built = await build(ctx, a);
  if (built !== 'next') {
    if (built === 'terminal') settle(ctx, a);
    return built;
  }
  return from(ctx, a, 'review');
}

export async function runQueue(options: RunOptions): Promise<RunSummary> {
  const ctx: RunContext = {
    ...options,
    dir: workOrdersDir(options.task),
    ledger: new WoLedger(
      options.root,
      options.log,
      woCheckpoints(options),
      options.store,
      options.requestBase,
    ),
    now: () => isoUtcSeconds(Date.now()),
  };
  try {
    return await runQueueIn(ctx, options);
  } finally {
    // On a store the ledger's writes trail the queue: the run ends when they are all sent.
    await ctx.ledger.settled();
  }
}

async function runQueueIn(ctx: RunContext, options: RunOptions): Promise<RunSummary> {
  let stop: string | undefined;
  let cancelled = false;
  if (options.parallelMax !== undefined) {
    const rounds = await runRounds(ctx, options.parallelMax);
    stop = rounds.stop;
    cancelled = rounds.cancelled;
  }
  for (const entry of options.parallelMax === undefined ? entries(ctx) : []) {
    stop = stopReason(ctx);
    if (stop) break;
    if ((await recover(ctx, entry)) === 'cancelled') {
      cancelled = true;
      break;
    }
  }
  while (!stop && !cancelled && options.parallelMax === undefined) {
    stop = stopReason(ctx);
    if (stop) break;
    const next = nextProcessable(entries(ctx));
    if (!next) break;
    stop = worktreeDirty(ctx);
    if (stop) break;
    if ((await attempt(ctx, next)) === 'cancelled') cancelled = true;
  }
  const final = entries(ctx);
  if (stop || cancelled) {
    for (const e of final)
      if (e.row.status === 'in_progress' && !e.row.terminal)
        ctx.ledger.close(e.row.wo_id, 'stop', { note: stop ?? 'cancelled' });
  }
  let outcome: RunSummary['outcome'] = cancelled ? 'cancelled' : stop ? 'stopped' : runEnd(final);
  let gates: ExitReport | null = null;
  if (outcome === 'complete') {
    const answered = await exitGates(ctx);
    if (answered === undefined) {
      outcome = 'cancelled';
      cancelled = true;
    } else {
      gates = answered;
      // The merge gate's exit code decides (it beats its JSON, and re-runs the ship gate).
      if (answered.merge_gate.exit_code !== 0) outcome = 'gates_refused';
    }
  }
  return {
    task: options.task,
    outcome,
    stop_reason: stop ?? (cancelled ? 'cancelled' : null),
    gates,
    work_orders: final.map((e) => ({
      wo_id: e.row.wo_id,
      status: e.row.status,
      terminal: e.row.terminal,
      halt_reason: e.row.halt_reason,
      attempts: runObject(ctx, e.row.wo_id).attempts ?? 0,
      waiting_on: e.row.status === 'blocked' ? (e.waitingOn ?? null) : null,
    })),
  };
}
