// The phases of one attempt: build (the builder agent, behind a re-gate and the ready →
// in_progress flip), review, critique, and the three-way verdict. Each phase leaves its result
// on disk before the next starts, so a crash anywhere resumes from files alone.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { filesToTouch } from '../../engine/workorders/body';
import {
  buildRecord,
  harnessArgs,
  harnessPlan,
  harnessRefused,
  harnessSession,
  reviewFromBuild,
  undeclaredPaths,
  type HarnessPlan,
} from '../../engine/workorders/harness-build';
import { aggregateCritique, critiqueLine } from '../../engine/workorders/critique';
import { dispatchGate } from '../../engine/workorders/dispatch-gate';
import { sidecars } from '../../engine/workorders/ids';
import { isObject, objectOrEmpty } from '../../engine/workorders/jq';
import { obsLine } from '../../engine/workorders/obs';
import { classifyRisk } from '../../engine/workorders/risk';
import { riskRules } from '../../drivers/workorders/risk-rules';
import { collect } from '../../engine/workorders/run-state';
import { verdict } from '../../engine/workorders/verdict';
import { runAgent, type AgentResult } from '../../drivers/workorders/agent';
import { runHarnessBuild } from '../../drivers/workorders/harness-builder';
import { appendObs, criticFiles } from '../../drivers/workorders/artifacts';
import { readText, writeJsonAtomic } from '../../drivers/workorders/files';
import { changedPaths, commitAll, head, isAncestor, resetHard } from '../../drivers/workorders/git';
import { collectHandle } from '../../drivers/workorders/handle';
import { builderRecordPath, recordBuilder } from '../../drivers/workorders/orphan-build';
import type { RunContext } from './context';
import { frontmatterOf, haltMarkerPresent, haltWo, runObject, transition } from './steps';

export interface Attempt {
  id: string;
  path: string;
  attempt: number;
  checkpoint: string;
}

/** Which harness run built which attempt (default builder): `wo-NN.build.json`. */
export function buildRecordName(id: string): string {
  return `${id}.build.json`;
}

export type PhaseEnd = 'next' | 'terminal' | 'cancelled';

function agentEnv(ctx: RunContext, a: Attempt, phase: string): Record<string, string> {
  return {
    WO_ID: a.id,
    WO_FILE: a.path,
    WO_DIR: ctx.dir,
    WO_TASK_DIR: ctx.task,
    WO_WORKTREE: ctx.worktree,
    WO_ATTEMPT: String(a.attempt),
    WO_CHECKPOINT_BEFORE: a.checkpoint,
    WO_PHASE: phase,
    WO_FILES_TO_TOUCH: filesToTouch(readText(a.path) ?? '').join('\n'),
    WO_REVIEW_FILE: join(ctx.dir, sidecars(a.id).review),
    WO_CRITICS_DIR: ctx.dir,
    WO_RUNNER_PID: String(process.pid),
  };
}

async function agent(
  ctx: RunContext,
  a: Attempt,
  phase: string,
  command: string,
  extra: Record<string, string> = {},
  onSpawn?: (pgid: number) => void,
) {
  ctx.progress?.({ wo: a.id, phase });
  return runAgent({
    command,
    cwd: ctx.worktree,
    env: { ...agentEnv(ctx, a, phase), ...extra },
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    onSpawn,
  });
}

/** The builder of one attempt: the agent command, or the default `loop-ledger run` harness. */
async function runBuilder(
  ctx: RunContext,
  a: Attempt,
  plan: HarnessPlan | undefined,
): Promise<AgentResult & { refusal?: string }> {
  // The builder's process group is on disk while it runs: if this runner is killed, the next
  // one stops the orphaned build before it resets and rebuilds.
  const onSpawn = (pgid: number): void => recordBuilder(ctx.dir, a.id, a.attempt, pgid);
  if ('command' in ctx.builder) return agent(ctx, a, 'build', ctx.builder.command, {}, onSpawn);
  ctx.progress?.({ wo: a.id, phase: 'build' });
  const run = await runHarnessBuild({
    cli: ctx.cli,
    args: harnessArgs({
      woFile: a.path,
      agentConfig: ctx.builder.agentConfig,
      plan: plan ?? { allow: [], checks: [] },
      worktree: ctx.worktree,
      session: harnessSession(a.id, a.attempt),
      checkpoint: ctx.checkpoint,
    }),
    worktree: ctx.worktree,
    env: agentEnv(ctx, a, 'build'),
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    onSpawn,
  });
  if (!run.result.cancelled) {
    const record = buildRecord({
      wo: a.id,
      attempt: a.attempt,
      exitCode: run.result.code,
      stdout: run.stdout,
      stderrTail: run.stderrTail,
      receipt: run.receipt,
      now: ctx.now(),
    });
    writeJsonAtomic(join(ctx.dir, buildRecordName(a.id)), record);
    ctx.log(
      `wo-run build wo=${a.id} attempt=${a.attempt} builder=loop-ledger-run exit=${String(run.result.code)} verdict=${record.final_verdict ?? 'none'} stop=${record.stop_reason ?? 'none'}`,
    );
  }
  return harnessRefused(run.result.code, run.receipt)
    ? { ...run.result, refusal: run.stderrTail || 'refused' }
    : run.result;
}

/** Re-gate, flip to in_progress, run the builder, commit what it left, collect the handle. */
export async function build(ctx: RunContext, a: Attempt): Promise<PhaseEnd> {
  const gate = dispatchGate(frontmatterOf(a.path));
  const runPath = join(ctx.dir, sidecars(a.id).run);
  const collectWith = (haltReason: string, buildReturned: boolean, after: string | null): void => {
    const result = collect(a.id, readText(runPath), {
      overrideUsed: String(gate.override_used),
      haltReason,
      buildReturned: String(buildReturned),
      checkpointAfter: after ?? 'null',
    });
    if (result.write) writeJsonAtomic(runPath, result.write);
    ctx.log(result.stderr);
  };
  if (!gate.dispatchable) {
    collectWith(gate.reason, false, null);
    haltWo(ctx, a.id, gate.reason);
    return 'terminal';
  }
  const woText = readText(a.path) ?? '';
  const planned = 'command' in ctx.builder ? undefined : harnessPlan(woText);
  if (planned && !planned.ok) {
    collectWith(planned.reason, false, null);
    haltWo(ctx, a.id, planned.reason);
    return 'terminal';
  }
  const flip = transition(a.path, 'in_progress');
  if (!flip.ok) {
    collectWith(flip.reason, false, null);
    haltWo(ctx, a.id, flip.reason);
    return 'terminal';
  }
  const result = await runBuilder(ctx, a, planned?.plan);
  rmSync(builderRecordPath(ctx.dir, a.id), { force: true });
  if (result.cancelled) return 'cancelled';
  const spawnFailed = result.spawnFailed || result.code === 127;
  // A refused harness ran no agent: whatever is in the tree is not this build's to commit.
  if (!spawnFailed && result.refusal === undefined)
    commitAll(ctx.worktree, `${a.id}: build attempt ${a.attempt}`);
  const fm = frontmatterOf(a.path);
  const handle = collectHandle(
    ctx.worktree,
    fm.id ?? null,
    {
      checkpointBefore: a.checkpoint,
      dispatched: true,
      overrideUsed: gate.override_used,
      haltReason: spawnFailed ? 'spawn_failed' : '',
      buildReturned: result.code === 0,
    },
    ctx.log,
  );
  // "Files to touch" is enforced on what was committed, whoever the builder is.
  const declared = filesToTouch(woText);
  const drift = declared.length > 0 ? undeclaredPaths(handle.artifacts, declared) : [];
  if (declared.length === 0) ctx.log(`wo-run warn wo=${a.id} files_to_touch=none enforced=false`);
  const haltReason =
    handle.halt_reason ??
    (drift.length > 0 ? 'undeclared_file_drift' : result.refusal !== undefined ? 'builder_refused' : null);
  collectWith(haltReason ?? 'null', handle.build_returned, handle.checkpoint_after);
  ctx.ledger.phase(a.id, a.attempt, 'build', new Date(), handle.artifacts);
  if (haltReason !== null) {
    const evidence =
      drift.length > 0 ? { paths: drift } : result.refusal !== undefined ? { refusal: result.refusal } : {};
    haltWo(ctx, a.id, haltReason, evidence);
    return 'terminal';
  }
  return 'next';
}

/**
 * Runs the reviewer; its own `$WO_REVIEW_FILE` wins, else its exit code is the verdict. Without a
 * reviewer command (default builder), the attempt's harness receipt is the review.
 */
export async function review(ctx: RunContext, a: Attempt): Promise<PhaseEnd> {
  const path = join(ctx.dir, sidecars(a.id).review);
  if (ctx.reviewer === undefined) {
    ctx.progress?.({ wo: a.id, phase: 'review' });
    const record = objectOrEmpty(readText(join(ctx.dir, buildRecordName(a.id))));
    writeJsonAtomic(path, reviewFromBuild(record, a.id, a.attempt, ctx.now()));
    ctx.ledger.phase(a.id, a.attempt, 'review', new Date());
    return 'next';
  }
  const result = await agent(ctx, a, 'review', ctx.reviewer);
  if (result.cancelled) return 'cancelled';
  const written = objectOrEmpty(readText(path));
  if (!isObject(written.gate_specific)) {
    const verdictText = result.code === 0 ? 'pass' : 'fail';
    writeJsonAtomic(path, {
      gate_specific: { overall_verdict: verdictText },
      reviewer_exit_code: result.code,
      timed_out: result.timedOut,
      recorded_at: ctx.now(),
    });
  }
  ctx.ledger.phase(a.id, a.attempt, 'review', new Date());
  return 'next';
}

/** Runs the critic (when configured) and aggregates its files into `wo-NN._critique.json`. */
export async function critique(ctx: RunContext, a: Attempt): Promise<PhaseEnd> {
  const run = runObject(ctx, a.id);
  const after = typeof run.checkpoint_after === 'string' ? run.checkpoint_after : null;
  const changed = after ? (changedPaths(ctx.worktree, a.checkpoint, after) ?? []) : [];
  const fm = frontmatterOf(a.path);
  const rules = riskRules(ctx.env ?? process.env);
  const floor = Array.isArray(fm.gate_floor)
    ? fm.gate_floor.map(String).join(',')
    : (rules?.base_gate_floor ?? []).join(',');
  const tier = classifyRisk(
    {
      files: changed,
      gateFloor: floor,
      collapsedScc: fm.collapsed_scc === true,
    },
    rules,
  ).risk_tier;
  let evaluated = false;
  // Critic files of a critic that crashed before this resume are not this run's verdicts.
  for (const file of criticFiles(ctx.dir, a.id)) rmSync(join(ctx.dir, file.name), { force: true });
  if (ctx.critic) {
    const result = await agent(ctx, a, 'critique', ctx.critic, {
      WO_RISK_TIER: tier,
      WO_CRITIC_PREFIX: join(ctx.dir, `${a.id}.critic-`),
    });
    if (result.cancelled) return 'cancelled';
    evaluated = true;
  }
  const envelope = aggregateCritique(
    {
      wo: a.id,
      tier,
      mode: ctx.critic ? 'fanout' : 'none',
      expected: String(ctx.critic ? ctx.criticsExpected : 0),
      evaluated: String(evaluated),
      diffEmpty: after === null,
      required: false,
      runAt: ctx.now(),
      notDispatched: [],
    },
    evaluated ? criticFiles(ctx.dir, a.id) : [],
  );
  const path = join(ctx.dir, sidecars(a.id).critique);
  writeJsonAtomic(path, envelope);
  ctx.log(critiqueLine(envelope, path));
  ctx.ledger.phase(a.id, a.attempt, 'critique', new Date());
  if (envelope.blocking === true) haltWo(ctx, a.id, String(envelope.halt_reason));
  return 'next';
}

/** The three-way verdict from disk, its action, the ledger close and the obs record. */
export function settle(
  ctx: RunContext,
  a: Attempt,
  /** Parallel rounds: merge the branch back before `done`; a returned reason makes it TERMINAL. */
  beforeDone?: () => string | undefined,
): 'done' | 'needs_rework' | 'terminal' {
  const names = sidecars(a.id);
  const reviewFile = objectOrEmpty(readText(join(ctx.dir, names.review)));
  const critiqueText = readText(join(ctx.dir, names.critique));
  const critiqueFile = critiqueText === undefined ? undefined : objectOrEmpty(critiqueText);
  const v = verdict({
    haltMarker: haltMarkerPresent(ctx, a.id),
    reviewVerdict: isObject(reviewFile.gate_specific) ? reviewFile.gate_specific.overall_verdict : undefined,
    critiqueBlocking: critiqueFile?.blocking,
  });
  let disposition: string = v.disposition;
  let end: 'done' | 'needs_rework' | 'terminal';
  const refusedMerge = v.verdict === 'clean' ? beforeDone?.() : undefined;
  if (refusedMerge !== undefined) {
    end = terminal(ctx, a, refusedMerge);
    disposition = 'terminal_halt';
  } else if (v.verdict === 'clean') {
    const moved = transition(a.path, 'done');
    end = moved.ok ? 'done' : terminal(ctx, a, moved.reason);
    if (end === 'done')
      ctx.ledger.close(a.id, 'complete', {
        note: `attempt ${a.attempt}: review pass, critique not blocking`,
      });
  } else if (v.verdict === 'retryable') {
    end = retry(ctx, a);
    if (end === 'terminal') disposition = 'terminal_halt';
  } else {
    const reason = String(
      objectOrEmpty(readText(join(ctx.dir, names.halt))).reason ??
        critiqueFile?.halt_reason ??
        v.haltReason ??
        'terminal',
    );
    end = terminal(ctx, a, reason);
  }
  const record = appendObs(ctx.dir, a.id, disposition, ctx.now());
  ctx.log(obsLine(record));
  return end;
}

function terminal(ctx: RunContext, a: Attempt, reason: string): 'terminal' {
  const marker = haltWo(ctx, a.id, reason);
  ctx.ledger.close(a.id, 'escalate', {
    blocker: reason,
    evidence: marker,
    next: `inspect ${a.id}, then clear its HALT (loop-ledger wo clear)`,
  });
  return 'terminal';
}

/** RETRYABLE: back to the checkpoint (only after the ancestor check), then needs_rework. */
function retry(ctx: RunContext, a: Attempt): 'needs_rework' | 'terminal' {
  if (ctx.inPlace) return terminal(ctx, a, 'in_place_review_fail');
  const current = head(ctx.worktree);
  if (
    !current ||
    !isAncestor(ctx.worktree, a.checkpoint, current) ||
    !resetHard(ctx.worktree, a.checkpoint)
  ) {
    return terminal(ctx, a, 'reset_target_invalid');
  }
  const moved = transition(a.path, 'needs_rework');
  if (!moved.ok) return terminal(ctx, a, moved.reason);
  ctx.ledger.close(a.id, 'revise', { note: `attempt ${a.attempt}: review failed; reset to ${a.checkpoint}` });
  return 'needs_rework';
}
