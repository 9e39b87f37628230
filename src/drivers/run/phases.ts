// The harness run as a state machine: explore → code → check → review → code … → end. Each phase
// is one transition that gathers its facts (processes, git), asks the engine's stop rules, and
// hands back the next phase; a phase that stops the run hands back an ending instead, which
// src/drivers/run/harness.ts writes in one place.
import { addUsage, agentUsage } from '../../engine/run/agent-usage';
import { disallowedFiles } from '../../engine/run/fnmatch';
import { attemptDirName } from '../../engine/run/ledger-mapping';
import type { CheckRecord } from '../../engine/run/receipt';
import { publicCheckResults, rolePrompt } from '../../engine/run/role-io';
import {
  checksTerminal,
  coderTerminal,
  explorerTerminal,
  maxAttemptsTerminal,
  reviewDecision,
  scopeAfterChecksTerminal,
} from '../../engine/run/stop-rules';
import { runAgent, runCheck } from './agents';
import { ArtifactWriteError } from './artifacts';
import { changedFiles, treeState, type TreeState } from './git';
import { end, type Attempt, type Carry, type RunState, type Step } from './state';
import type { AttemptOutcome, StartPoint } from './types';

function carryFrom(start: StartPoint, explorerResult: unknown): Carry {
  return {
    explorerResult,
    previousFindings: [...start.previousFindings],
    lastReviewer: start.lastReviewer,
    lastChecks: start.lastChecks,
    lastDiff: start.lastDiff,
  };
}

/** A fresh run starts with the explorer; a resumed one whose explorer is recorded, at its attempt. */
export function first(state: RunState): Step {
  const { start } = state.o;
  if (start.explorer === undefined) return { phase: 'explore' };
  return { phase: 'code', attempt: start.attempt, carry: carryFrom(start, start.explorer.result ?? null) };
}

/** One transition; a run file that cannot be written ends the run wherever it happens. */
export async function advance(state: RunState, step: Exclude<Step, { phase: 'end' }>): Promise<Step> {
  try {
    switch (step.phase) {
      case 'explore':
        return await explore(state);
      case 'code':
        return await code(state, step.attempt, step.carry);
      case 'check':
        return await check(state, step.current);
      case 'review':
        return await review(state, step.current, step.checks, step.afterChecks, step.diffInside);
    }
  } catch (error) {
    if (error instanceof ArtifactWriteError)
      return end({ kind: 'artifact-write-failed', message: error.message });
    throw error;
  }
}

async function explore(state: RunState): Promise<Step> {
  const { agents, request, run } = state.o;
  state.enter({ kind: 'explorer' }, agents.explorer.timeoutSeconds);
  const before = await state.snapshot();
  const r = await runAgent(
    agents.explorer,
    rolePrompt(request, 'explorer', {}),
    run,
    'explorer',
    {},
    state.o,
  );
  const stopped = await state.guardLedger('explorer', r.cancelled);
  if (stopped) return stopped;
  const escaped = await state.checkGit('explorer');
  const edited = escaped.length > 0 || before !== (await state.snapshot());
  const terminal = explorerTerminal(r.code, edited);
  if (terminal) {
    const evidencePaths = ['explorer-stdout.txt', 'explorer-stderr.txt'].map((f) =>
      run.repoRelative(`explorer/${f}`),
    );
    return end({ kind: 'explorer-failed', terminal, evidencePaths });
  }
  return { phase: 'code', attempt: state.o.start.attempt, carry: carryFrom(state.o.start, r.result ?? null) };
}

/** The coder, then the scope of what it changed; past the last attempt, the attempts are exhausted. */
async function code(state: RunState, attempt: number, carry: Carry): Promise<Step> {
  const { agents, request, run, repo } = state.o;
  if (attempt > request.maxAttempts) {
    // Exhausted: the last attempt's record is the terminal one.
    state.attemptsUsed = request.maxAttempts;
    const terminal = maxAttemptsTerminal(carry.lastReviewer);
    return end({ kind: 'stop', terminal, checks: carry.lastChecks, diffInside: carry.lastDiff });
  }
  const folder = `attempts/${attemptDirName(attempt)}`;
  const env = { LOOP_ATTEMPT: String(attempt) };
  const record: AttemptOutcome = {
    attempt,
    withExplorer: attempt === 1,
    stepsRun: [],
    changedFiles: [],
    checks: [],
    evidencePaths: [],
    reviewer: null,
    briefId: null,
    terminal: null,
    receiptPath: null,
  };
  state.beginAttempt(record);
  state.enter({ kind: 'coder', attempt }, agents.coder.timeoutSeconds);
  const prompt = rolePrompt(request, 'coder', {
    attempt,
    explorer_result: carry.explorerResult,
    previous_findings: carry.previousFindings,
  });
  const coder = await runAgent(agents.coder, prompt, run, folder, env, state.o);
  record.usage = addUsage(record.usage ?? {}, agentUsage(coder.result));
  const stopped = await state.guardLedger('coder', coder.cancelled);
  if (stopped) return stopped;
  await state.checkGit('coder');
  record.stepsRun.push('coder');
  const changed = await changedFiles(repo, state.base);
  record.changedFiles = changed;
  await run.write(`${folder}/changed-files.txt`, changed.map((f) => `${f}\n`).join(''));
  const terminal = coderTerminal(coder.code, [
    ...disallowedFiles(changed, request.allowedGlobs),
    ...state.gitViolations,
  ]);
  if (terminal) return end({ kind: 'stop', terminal, checks: [], diffInside: null });
  return { phase: 'check', current: { attempt, folder, env, record, carry } };
}

/** Every check, then timeouts, then the checks' own side effects on the scope. */
async function check(state: RunState, current: Attempt): Promise<Step> {
  const { request, run, repo } = state.o;
  const { attempt, folder, record } = current;
  const checks: CheckRecord[] = [];
  for (const [i, command] of request.checks.entries()) {
    state.enter(
      { kind: 'check', attempt, index: i + 1, count: request.checks.length, command },
      request.checkTimeout,
    );
    const c = await runCheck(command, i + 1, folder, request.checkTimeout, run, state.o);
    if (c.cancelled || state.o.signal?.aborted) return state.cancelled();
    checks.push(c.record);
  }
  const stopped = await state.guardLedger('check', false);
  if (stopped) return stopped;
  await state.checkGit('a check');
  record.stepsRun.push('checks');
  record.checks = checks;
  await run.write(`${folder}/checks.json`, JSON.stringify(checks, null, 2) + '\n');
  // One read of the tree serves the diff, the scope check and the reviewer's "before".
  const afterChecks = await treeState(repo, { diff: true, base: state.base });
  const diffInside = `${folder}/diff.patch`;
  await run.write(diffInside, afterChecks.diff);
  record.evidencePaths.push(
    run.repoRelative(`${folder}/checks.json`),
    ...checks.flatMap((c) => [c.stdout, c.stderr]),
    run.repoRelative(diffInside),
  );
  const timeout = checksTerminal(checks);
  if (timeout) return end({ kind: 'stop', terminal: timeout, checks, diffInside });
  record.changedFiles = afterChecks.changedFiles;
  const scope = scopeAfterChecksTerminal([
    ...disallowedFiles(afterChecks.changedFiles, request.allowedGlobs),
    ...state.gitViolations,
  ]);
  if (scope) return end({ kind: 'stop', terminal: scope, checks, diffInside });
  return { phase: 'review', current, checks, afterChecks, diffInside };
}

/**
 * The reviewer, between two snapshots, over the exact diff it is shown; its decision weighs
 * exit code > edited > invalid output > verdict. A repair goes on to the next attempt's coder.
 */
async function review(
  state: RunState,
  current: Attempt,
  checks: CheckRecord[],
  afterChecks: TreeState,
  diffInside: string,
): Promise<Step> {
  const { agents, request, run, repo, recorder } = state.o;
  const { attempt, folder, env, record } = current;
  const changed = afterChecks.changedFiles;
  const brief = await recorder.prepareBrief({
    diff: afterChecks.diff,
    verification: JSON.stringify(checks, null, 2) + '\n',
    changeScope: changed.map((f) => `${f}\n`).join(''),
  });
  if (brief) {
    await run.writeJson(`${folder}/critic-brief.json`, brief.packet);
    record.briefId = brief.briefId;
    record.evidencePaths.push(run.repoRelative(`${folder}/critic-brief.json`));
  }
  state.enter({ kind: 'code-reviewer', attempt }, agents['code-reviewer'].timeoutSeconds);
  const prompt = rolePrompt(request, 'code-reviewer', {
    attempt,
    changed_files: changed,
    diff_text: afterChecks.diff,
    check_results: publicCheckResults(checks),
  });
  const reviewer = await runAgent(agents['code-reviewer'], prompt, run, folder, env, state.o);
  record.usage = addUsage(record.usage ?? {}, agentUsage(reviewer.result));
  const stopped = await state.guardLedger('code-reviewer', reviewer.cancelled);
  if (stopped) return stopped;
  const escaped = await state.checkGit('code-reviewer');
  const afterReview = await treeState(repo, { diff: true, base: state.base });
  const edited = escaped.length > 0 || afterChecks.snapshot !== afterReview.snapshot;
  await run.write(diffInside, afterReview.diff);
  record.stepsRun.push('code-reviewer');
  if (reviewer.result !== undefined)
    record.evidencePaths.push(run.repoRelative(`${folder}/code-reviewer-result.json`));

  const decision = reviewDecision({ code: reviewer.code, edited, result: reviewer.result, checks });
  if (decision.kind === 'terminal') {
    const { terminal } = decision;
    const valid =
      terminal.stop_reason === 'CODE_REVIEWER_PASS' || terminal.stop_reason === 'CODE_REVIEWER_BLOCKED';
    record.reviewer = valid ? terminal.reviewer : null;
    return end({ kind: 'stop', terminal, checks, diffInside });
  }
  record.reviewer = decision.reviewer;
  const carry: Carry = {
    explorerResult: current.carry.explorerResult,
    previousFindings: decision.previousFindings,
    lastReviewer: decision.reviewer,
    lastChecks: checks,
    lastDiff: diffInside,
  };
  // The last attempt is recorded by the ending (exhausted), every earlier one here.
  if (attempt < request.maxAttempts) {
    state.record = null;
    await recorder.recordAttempt(record);
  }
  return { phase: 'code', attempt: attempt + 1, carry };
}
