// The steps of `wo run` that both the sequential pass (run-queue.ts) and the parallel rounds
// (parallel-rounds.ts) take: reading the queue, the stop checks at every boundary, starting an
// attempt, and carrying an attempt from a phase to its verdict.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { sidecars } from '../../engine/workorders/ids';
import type { QueueEntry } from '../../engine/workorders/queue';
import { reconcileRow } from '../../engine/workorders/reconcile';
import { dispatch as dispatchRun } from '../../engine/workorders/run-state';
import { depsProblem } from '../../engine/workorders/status';
import { dispatchGate } from '../../engine/workorders/dispatch-gate';
import { harnessPlan } from '../../engine/workorders/harness-build';
import { obsLine } from '../../engine/workorders/obs';
import { appendObs, criticFiles } from '../../drivers/workorders/artifacts';
import { readText, siblingsOf, woFacts, woFileNames, writeJsonAtomic } from '../../drivers/workorders/files';
import { hookFrom, runHook } from '../../drivers/workorders/hooks';
import type { RunContext } from './context';
import { buildRecordName, critique, review, settle, type Attempt, type PhaseEnd } from './phases';
import { frontmatterOf, haltWo, transition } from './steps';
import { killSwitchOn } from './admin';

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
  if (killSwitchOn(ctx.task)) return 'kill_switch';
  const budget = hookFrom('WO_BUDGET_CMD', ctx.env ?? process.env);
  if (budget && runHook(budget, []).exitCode !== 0) return 'budget_exceeded';
  return undefined;
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
