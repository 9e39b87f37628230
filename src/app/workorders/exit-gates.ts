// The exit of `wo run` once every work order is done: the task review, then
// the ship, merge and mode gates as their kernels answer them. The loop never opens a PR: the
// merge gate decides whether the assembled branch may ship (the exit code), and the mode gate's
// answer (may a PR be opened, and why not) is reported for the human who opens it.
import { join } from 'node:path';
import { acceptanceChecks } from '../../engine/workorders/harness-build';
import { isObject, objectOrEmpty } from '../../engine/workorders/jq';
import { runAgent } from '../../drivers/workorders/agent';
import { readText, woFileNames, writeJsonAtomic } from '../../drivers/workorders/files';
import { runGate, type GateAnswer } from '../../drivers/workorders/gate-runner';
import { head } from '../../drivers/workorders/git';
import type { RunContext } from './context';

export interface GateReport {
  exit_code: number | null;
  [key: string]: unknown;
}

export interface ExitReport {
  task_review: { verdict: string; reused: boolean; reviewed_head: string | null };
  ship_gate: GateReport;
  merge_gate: GateReport;
  mode_gate: GateReport;
}

const GATE_TIMEOUT_MS = 120_000;

/** The task review file the ship gate reads: `<task>/_review.json`. */
export function taskReviewPath(task: string): string {
  return join(task, '_review.json');
}

/**
 * Default task review (no reviewer command): every work order's runnable acceptance, re-run in
 * version order on the assembled tree — a later build must not have broken an earlier one.
 */
async function acceptanceReview(ctx: RunContext, headSha: string): Promise<Record<string, unknown>> {
  const checks: { wo_file: string; command: string; exit_code: number | null; timed_out: boolean }[] = [];
  for (const fileName of woFileNames(ctx.dir)) {
    for (const command of acceptanceChecks(readText(join(ctx.dir, fileName)) ?? '')) {
      const r = await runAgent({
        command,
        cwd: ctx.worktree,
        env: { WO_PHASE: 'task-review', WO_TASK_DIR: ctx.task, WO_WORKTREE: ctx.worktree },
        timeoutMs: ctx.timeoutMs,
        signal: ctx.signal,
      });
      if (r.cancelled) return {};
      checks.push({ wo_file: fileName, command, exit_code: r.code, timed_out: r.timedOut });
    }
  }
  const pass = checks.length > 0 && checks.every((c) => c.exit_code === 0);
  return {
    gate_specific: { overall_verdict: pass ? 'pass' : 'fail', acceptance: checks },
    reviewer: 'acceptance re-run',
    reviewed_head: headSha,
    recorded_at: ctx.now(),
  };
}

/** The reviewer command over the whole task: its own file wins, else its exit code. */
async function commandReview(ctx: RunContext, reviewer: string, headSha: string) {
  const path = taskReviewPath(ctx.task);
  const r = await runAgent({
    command: reviewer,
    cwd: ctx.worktree,
    env: {
      WO_PHASE: 'task-review',
      WO_TASK_DIR: ctx.task,
      WO_DIR: ctx.dir,
      WO_WORKTREE: ctx.worktree,
      WO_REVIEW_FILE: path,
      WO_RUNNER_PID: String(process.pid),
    },
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
  });
  if (r.cancelled) return {};
  const written = objectOrEmpty(readText(path));
  if (isObject(written.gate_specific)) return { ...written, reviewed_head: headSha };
  return {
    gate_specific: { overall_verdict: r.code === 0 ? 'pass' : 'fail' },
    reviewer_exit_code: r.code,
    timed_out: r.timedOut,
    reviewed_head: headSha,
    recorded_at: ctx.now(),
  };
}

function verdictOf(review: Record<string, unknown>): string {
  const gs = review.gate_specific;
  return isObject(gs) && typeof gs.overall_verdict === 'string' ? gs.overall_verdict : 'missing';
}

function report(ctx: RunContext, answer: GateAnswer): GateReport {
  for (const line of answer.lines) ctx.log(line);
  return { exit_code: answer.exitCode, ...answer.payload };
}

/**
 * Runs the exit: a task review of this HEAD (kept and reused when one already exists for it, so
 * a re-run never repeats it), then the three gates. Undefined when cancelled.
 */
export async function exitGates(ctx: RunContext): Promise<ExitReport | undefined> {
  const headSha = head(ctx.worktree) ?? null;
  const path = taskReviewPath(ctx.task);
  const existing = objectOrEmpty(readText(path));
  const reused = headSha !== null && existing.reviewed_head === headSha;
  let review = existing;
  if (!reused) {
    ctx.progress?.({ wo: 'task', phase: 'task-review' });
    review =
      ctx.reviewer === undefined
        ? await acceptanceReview(ctx, headSha ?? '')
        : await commandReview(ctx, ctx.reviewer, headSha ?? '');
    if (ctx.signal?.aborted) return undefined;
    writeJsonAtomic(path, review);
  }
  ctx.log(`wo-run task-review verdict=${verdictOf(review)} reused=${reused} head=${headSha ?? 'none'}`);
  ctx.progress?.({ wo: 'task', phase: 'gates' });
  const env = ctx.env ?? process.env;
  const ship = report(ctx, await runGate(ctx.cli, 'ship-gate', [ctx.task], env, GATE_TIMEOUT_MS));
  const merge = report(ctx, await runGate(ctx.cli, 'merge-gate', [ctx.task], env, GATE_TIMEOUT_MS));
  const mode = report(
    ctx,
    await runGate(ctx.cli, 'mode-gate', [ctx.task, '--action', 'pr-open'], env, GATE_TIMEOUT_MS),
  );
  return {
    task_review: { verdict: verdictOf(review), reused, reviewed_head: headSha },
    ship_gate: ship,
    merge_gate: merge,
    mode_gate: mode,
  };
}
