// `wo run`: the sequential pass over a task's work orders. On entry every work order is
// reconciled from disk and crashed attempts are recovered; then, while a work order is
// processable, the next one (version order) is promoted, gated, dispatched under the cap, built,
// reviewed, critiqued and judged. The kill switch and $WO_BUDGET_CMD are checked at every
// boundary. Nothing here decides a rule: the engine does; this file sequences the steps.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { frontmatterScalar } from '../../engine/workorders/frontmatter';
import { shortId, sidecars } from '../../engine/workorders/ids';
import { nextProcessable, runEnd, type QueueEntry } from '../../engine/workorders/queue';
import { filesToTouch } from '../../engine/workorders/body';
import {
  crashLeftovers,
  dirtyBeforeBuild,
  disposition,
  reconcileRow,
} from '../../engine/workorders/reconcile';
import { dispatch as dispatchRun } from '../../engine/workorders/run-state';
import { depsProblem } from '../../engine/workorders/status';
import { dispatchGate } from '../../engine/workorders/dispatch-gate';
import { harnessPlan } from '../../engine/workorders/harness-build';
import { obsLine } from '../../engine/workorders/obs';
import { appendObs, criticFiles } from '../../drivers/workorders/artifacts';
import { readText, siblingsOf, woFacts, woFileNames, writeJsonAtomic } from '../../drivers/workorders/files';
import { head, isAncestor, resetHard } from '../../drivers/workorders/git';
import { changedFiles, removeFiles, untrackedFiles } from '../../drivers/workorders/leftovers';
import { builderRecordPath, stopOrphanBuild } from '../../drivers/workorders/orphan-build';
import { hookFrom, runHook } from '../../drivers/workorders/hooks';
import { workOrdersDir, type RunContext, type RunOptions } from './context';
import { exitGates, type ExitReport } from './exit-gates';
import { runRounds } from './parallel-rounds';
import { WoLedger, woCheckpoints } from './ledger';
import { build, buildRecordName, critique, review, settle, type Attempt, type PhaseEnd } from './phases';
import { frontmatterOf, haltWo, runObject, transition } from './steps';

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

export function entries(ctx: RunContext): QueueEntry[] {
  const lookup = siblingsOf(ctx.dir);
  return woFileNames(ctx.dir).map((fileName) => {
    const row = reconcileRow(woFacts(ctx.dir, fileName));
    const waitingOn = depsProblem(frontmatterOf(join(ctx.dir, fileName)).blocked_by, lookup);
    return { fileName, row, depsDone: waitingOn === undefined, waitingOn };
  });
}

/** The kill switch, then the budget hook; a stop writes no marker. */
export function stopReason(ctx: RunContext): string | undefined {
  if (existsSync(join(ctx.task, '.kill'))) return 'kill_switch';
  const budget = hookFrom('WO_BUDGET_CMD', ctx.env ?? process.env);
  if (budget && runHook(budget, []).exitCode !== 0) return 'budget_exceeded';
  return undefined;
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

/** From a phase onward; a phase already on disk is never repeated. */
export async function from(
  ctx: RunContext,
  a: Attempt,
  start: 'review' | 'critique' | 'verdict',
  beforeDone?: () => string | undefined,
): Promise<PhaseEnd | 'settled'> {
  if (start === 'review') {
    const end = await review(ctx, a);
    if (end !== 'next') return end;
  }
  if (start !== 'verdict') {
    const end = await critique(ctx, a);
    if (end !== 'next') return end;
  }
  settle(ctx, a, beforeDone);
  return 'settled';
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

/**
 * A new attempt starts with no verdict files: the previous attempt's review, critique and critic
 * files (already acted on, and summarised in the obs log) must never be read as this attempt's.
 */
function clearAttemptVerdicts(ctx: RunContext, id: string): void {
  const names = sidecars(id);
  for (const name of [
    names.review,
    names.critique,
    buildRecordName(id),
    ...criticFiles(ctx.dir, id).map((c) => c.name),
  ])
    rmSync(join(ctx.dir, name), { force: true });
}

/** A work order made terminal before any attempt started: marker, sidecar, obs record. */
function haltUnattempted(ctx: RunContext, id: string, reason: string): 'terminal' {
  haltWo(ctx, id, reason);
  ctx.log(obsLine(appendObs(ctx.dir, id, 'terminal_halt', ctx.now())));
  return 'terminal';
}

/**
 * Promote, gate, dispatch under the cap at `checkpoint`: the attempt, or `terminal` when the work
 * order was HALTed before any build.
 */
export function prepareAttempt(
  ctx: RunContext,
  entry: QueueEntry,
  checkpoint: string | undefined,
): Attempt | 'terminal' {
  const path = join(ctx.dir, entry.fileName);
  const id = entry.row.wo_id;
  if (entry.row.status === 'needs_rework' || entry.row.status === 'blocked') {
    const promoted = transition(path, 'ready');
    if (!promoted.ok) {
      return haltUnattempted(ctx, id, `promotion_refused:${promoted.reason}`);
    }
  }
  const gate = dispatchGate(frontmatterOf(path));
  if (!gate.dispatchable) return haltUnattempted(ctx, id, gate.reason);
  if (!('command' in ctx.builder)) {
    // The default builder needs "Files to touch" and a runnable acceptance: refused before an attempt.
    const planned = harnessPlan(readText(path) ?? '');
    if (!planned.ok) return haltUnattempted(ctx, id, planned.reason);
  }
  if (!checkpoint) return haltUnattempted(ctx, id, 'checkpoint_unavailable');
  const runPath = join(ctx.dir, sidecars(id).run);
  const dispatched = dispatchRun(id, readText(runPath), {
    checkpointBefore: checkpoint,
    cap: ctx.cap,
    now: ctx.now(),
  });
  ctx.log(dispatched.stderr);
  if (!dispatched.write) {
    // Stays `ready` (ready → needs_rework is illegal): the marker makes it terminal.
    return haltUnattempted(ctx, id, String(dispatched.stdout.reason));
  }
  clearAttemptVerdicts(ctx, id);
  writeJsonAtomic(runPath, dispatched.write);
  const a: Attempt = { id, path, attempt: dispatched.write.attempts as number, checkpoint };
  ctx.ledger.dispatch(id, a.attempt, new Date());
  return a;
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
    ledger: new WoLedger(options.root, options.log, woCheckpoints(options)),
    now: () => new Date().toISOString().replace(/\.[0-9]{3}Z$/, 'Z'),
  };
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
