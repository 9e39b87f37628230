// One harness run: explorer once, then attempts of coder → checks → code-reviewer until a
// terminal state, then the receipt. The driver gathers facts (processes, git) and
// the engine's stop rules decide; the recorder (src/app/run-ledger.ts) puts each attempt on the
// ledger as it finishes, so a crash or a cancel resumes at the first unrecorded step.
import { createHash } from 'node:crypto';
import { addUsage, agentUsage } from '../../engine/harness/agent-usage';
import type { AgentConfig } from '../../engine/harness/agent-config';
import { disallowedFiles } from '../../engine/harness/fnmatch';
import { guardViolations, violationPath } from '../../engine/harness/git-guard';
import { attemptDirName, type AttemptFacts } from '../../engine/harness/ledger-mapping';
import { buildReceipt, type CheckRecord, type FinalReceipt } from '../../engine/harness/receipt';
import { publicCheckResults, rolePrompt, type RoleRequest } from '../../engine/harness/role-io';
import {
  checksTerminal,
  coderTerminal,
  explorerTerminal,
  finishTerminal,
  ledgerEditedTerminal,
  maxAttemptsTerminal,
  reviewDecision,
  scopeAfterChecksTerminal,
  type ReviewerSummary,
  type Terminal,
} from '../../engine/harness/stop-rules';
import { runAgent, runCheck, type SpawnContext } from './agents';
import { ArtifactWriteError, type RunDirectory } from './artifacts';
import { changedFiles, gitGuard, headCommit, treeState } from './git';

export interface HarnessRequest extends RoleRequest {
  maxAttempts: number;
  checkTimeout: number;
}

export type Phase =
  | { kind: 'explorer' }
  | { kind: 'coder'; attempt: number }
  | { kind: 'check'; attempt: number; index: number; count: number; command: string }
  | { kind: 'code-reviewer'; attempt: number }
  | { kind: 'finishing' };

export interface Progress {
  phase: Phase;
  maxAttempts: number;
  /** Epoch milliseconds when the phase began. */
  startedAt: number;
  /** The phase's own timeout. */
  timeoutSeconds: number;
}

/**
 * What a finished attempt hands the recorder: the engine's attempt facts less what only the
 * recorder knows (the run's ledger place and the session's rubric), so the two cannot drift.
 */
export type AttemptOutcome = Omit<AttemptFacts, 'runId' | 'runDir' | 'measureFailingChecks'>;

export interface BriefMaterial {
  diff: string;
  verification: string;
  changeScope: string;
}

export interface HarnessRecorder {
  /** After every agent and check: a description of an edit to the ledger that the harness did not make. */
  ledgerEdited(): Promise<string | null>;
  /** The critic packet for the reviewer's exact diff (written beside the attempt), or null when it cannot be built. */
  prepareBrief(material: BriefMaterial): Promise<{ briefId: string; packet: unknown } | null>;
  /** A repair attempt (the run goes on). */
  recordAttempt(outcome: AttemptOutcome): Promise<void>;
  /**
   * The run's end, before its receipt, with the digest of the saved ending file (kept in the same
   * ledger write: it is what makes the saved ending trustworthy after a crash). Returns what could
   * not be recorded of a `close`, in words; any other failure throws and no receipt is written.
   */
  recordEnding(ending: RunEnding, endingDigest: string): Promise<string[]>;
  recordCancel(attempt: number, phase: string, markerPath: string): Promise<void>;
}

/**
 * What the ledger gets when a run ends: the terminal attempt as an iteration, the explorer's
 * failure as one `escalate` record, or — when the ledger is no longer the harness's to record
 * into (an agent edited it) or the run's own files could not be written — a `close` of the epoch
 * consistent with the receipt's stop reason.
 */
export type RunEnding =
  | { kind: 'attempt'; outcome: AttemptOutcome }
  | { kind: 'explorer-failure'; terminal: Terminal; receiptPath: string; evidencePaths: string[] }
  | { kind: 'close'; terminal: Terminal; receiptPath: string };

/**
 * The run's ending and its receipt, written before the ledger records the ending (with this
 * file's digest) and before the receipt is written: a crash after the ledger write is finished
 * from it by the next run of the session (src/app/run-recover.ts). An agent can write this file
 * too; only a copy whose digest the ledger holds is trusted.
 */
export const RUN_ENDING_FILE = 'ledger-ending.json';

/** What RUN_ENDING_FILE holds, as text: the ledger keeps the SHA-256 of exactly these bytes. */
export function endingFileText(runId: string, ending: RunEnding, receipt: FinalReceipt): string {
  return JSON.stringify({ ending, receipt, run_id: runId }, null, 2) + '\n';
}

export function receiptText(receipt: FinalReceipt): string {
  return JSON.stringify(receipt, null, 2) + '\n';
}

/** Where to start: a fresh run starts at attempt 1 with the explorer. */
export interface StartPoint {
  attempt: number;
  /** The explorer's result when it already ran and was recorded; `undefined` runs the explorer. */
  explorer?: { result: unknown };
  previousFindings: string[];
  lastReviewer: ReviewerSummary;
  lastChecks: CheckRecord[];
  lastDiff: string | null;
}

export const FRESH_START: StartPoint = {
  attempt: 1,
  previousFindings: [],
  lastReviewer: { verdict: 'BLOCKED', edited_files: false, findings: [] },
  lastChecks: [],
  lastDiff: null,
};

export interface HarnessOptions extends SpawnContext {
  runId: string;
  run: RunDirectory;
  request: HarnessRequest;
  agents: AgentConfig;
  start: StartPoint;
  recorder: HarnessRecorder;
  onProgress?: (progress: Progress) => void;
}

export type HarnessResult =
  | {
      kind: 'receipt';
      receipt: FinalReceipt;
      exitCode: 0 | 1;
      ledgerEdited: boolean;
      /** What the ledger could not take (one line each); the receipt stands regardless. */
      warnings: string[];
    }
  | { kind: 'cancelled'; marker: string; attempt: number; phase: string };

class Cancelled extends Error {
  constructor(
    readonly attempt: number,
    readonly phase: string,
  ) {
    super('cancelled');
  }
}

class LedgerEdited extends Error {
  constructor(readonly terminal: Terminal) {
    super('ledger edited');
  }
}

function phaseName(phase: Phase): string {
  switch (phase.kind) {
    case 'check':
      return `check ${phase.index}/${phase.count}`;
    default:
      return phase.kind;
  }
}

export async function runHarness(o: HarnessOptions): Promise<HarnessResult> {
  const { run, request, agents, recorder } = o;
  const repo = o.repo;
  let current: Phase = { kind: 'explorer' };
  let currentAttempt = 0;
  const enter = (phase: Phase, timeoutSeconds: number) => {
    current = phase;
    o.onProgress?.({ phase, maxAttempts: request.maxAttempts, startedAt: Date.now(), timeoutSeconds });
  };
  const guardLedger = async (role: 'explorer' | 'coder' | 'code-reviewer' | 'check', cancelled: boolean) => {
    if (cancelled || o.signal?.aborted) throw new Cancelled(currentAttempt, phaseName(current));
    const edited = await recorder.ledgerEdited();
    if (edited) throw new LedgerEdited(ledgerEditedTerminal(role, edited));
  };

  let attemptsUsed = 0;
  let ledgerWasEdited = false;
  /**
   * Ending file, then ledger, then receipt: a receipt exists only once the ledger holds its
   * ending, so a receipt the ledger does not vouch for was not written by the harness.
   */
  const finish = async (
    terminal: Terminal,
    checks: CheckRecord[],
    diffInside: string | null,
    endingOf: (receipt: FinalReceipt, receiptPath: string) => RunEnding,
  ): Promise<HarnessResult> => {
    enter({ kind: 'finishing' }, 0);
    const state = await treeState(repo, { diff: diffInside !== null, base });
    const changed = [...new Set([...state.changedFiles, ...gitViolations.map(violationPath)])].sort();
    const final = finishTerminal(terminal, changed, request.allowedGlobs, gitViolations);
    if (diffInside !== null) await run.write(diffInside, state.diff);
    const receipt = buildReceipt({
      runId: o.runId,
      objective: request.objective,
      terminal: final,
      attemptsUsed,
      maxAttempts: request.maxAttempts,
      allowedGlobs: request.allowedGlobs,
      changedFiles: changed,
      checks,
      runDir: run.relPath,
      finalDiff: diffInside === null ? '' : run.repoRelative(diffInside),
    });
    const ending = endingOf(receipt, run.repoRelative('final-receipt.json'));
    const endingText = endingFileText(o.runId, ending, receipt);
    await run.write(RUN_ENDING_FILE, endingText, true);
    const warnings = await recorder.recordEnding(
      ending,
      createHash('sha256').update(endingText, 'utf8').digest('hex'),
    );
    await run.write('final-receipt.json', receiptText(receipt), true);
    return {
      kind: 'receipt',
      receipt,
      exitCode: final.final_verdict === 'PASS' ? 0 : 1,
      ledgerEdited: ledgerWasEdited,
      warnings,
    };
  };
  const terminalOf = ({ final_verdict, stop_reason, reviewer }: FinalReceipt): Terminal => ({
    final_verdict,
    stop_reason,
    reviewer,
  });
  const closeEnding = (receipt: FinalReceipt, receiptPath: string): RunEnding => ({
    kind: 'close',
    terminal: terminalOf(receipt),
    receiptPath,
  });

  let pendingRecord: AttemptOutcome | null = null;
  // Read before any agent of this process runs: the commits, git folder and index flags an agent
  // could change out of the working tree's sight (engine/harness/git-guard.ts).
  const base = await headCommit(repo);
  let guard = await gitGuard(repo);
  /** Every such change so far: each is a scope violation, whatever the globs allow. */
  const gitViolations: string[] = [];
  const checkGit = async (who: string): Promise<string[]> => {
    const now = await gitGuard(repo);
    const found = guardViolations(guard, now, who);
    guard = now;
    gitViolations.push(...found);
    return found;
  };
  try {
    let explorerResult: unknown = o.start.explorer?.result ?? null;
    const explorerRan = o.start.explorer === undefined;
    if (explorerRan) {
      enter({ kind: 'explorer' }, agents.explorer.timeoutSeconds);
      const before = (await treeState(repo, { diff: false, base })).snapshot;
      const r = await runAgent(agents.explorer, rolePrompt(request, 'explorer', {}), run, 'explorer', {}, o);
      await guardLedger('explorer', r.cancelled);
      const escaped = await checkGit('explorer');
      const edited = escaped.length > 0 || before !== (await treeState(repo, { diff: false, base })).snapshot;
      const stop = explorerTerminal(r.code, edited);
      if (stop) {
        const evidencePaths = ['explorer-stdout.txt', 'explorer-stderr.txt'].map((f) =>
          run.repoRelative(`explorer/${f}`),
        );
        return await finish(stop, [], null, (receipt, receiptPath) => ({
          kind: 'explorer-failure',
          terminal: terminalOf(receipt),
          receiptPath,
          evidencePaths,
        }));
      }
      explorerResult = r.result ?? null;
    }

    let previousFindings = [...o.start.previousFindings];
    let lastChecks = o.start.lastChecks;
    let lastDiff = o.start.lastDiff;
    let lastReviewer = o.start.lastReviewer;
    for (let attempt = o.start.attempt; attempt <= request.maxAttempts; attempt++) {
      currentAttempt = attempt;
      attemptsUsed = attempt;
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
      pendingRecord = record;

      // 1–2. coder, then scope
      enter({ kind: 'coder', attempt }, agents.coder.timeoutSeconds);
      const coderPrompt = rolePrompt(request, 'coder', {
        attempt,
        explorer_result: explorerResult,
        previous_findings: previousFindings,
      });
      const coder = await runAgent(agents.coder, coderPrompt, run, folder, env, o);
      record.usage = addUsage(record.usage ?? {}, agentUsage(coder.result));
      await guardLedger('coder', coder.cancelled);
      await checkGit('coder');
      record.stepsRun.push('coder');
      let changed = await changedFiles(repo, base);
      record.changedFiles = changed;
      await run.write(`${folder}/changed-files.txt`, changed.map((f) => `${f}\n`).join(''));
      const coderStop = coderTerminal(coder.code, [
        ...disallowedFiles(changed, request.allowedGlobs),
        ...gitViolations,
      ]);
      if (coderStop) return await finishAttempt(coderStop, [], null);

      // 3–5. every check, then timeouts, then the checks' own side effects
      const checks: CheckRecord[] = [];
      for (const [i, command] of request.checks.entries()) {
        enter(
          { kind: 'check', attempt, index: i + 1, count: request.checks.length, command },
          request.checkTimeout,
        );
        const c = await runCheck(command, i + 1, folder, request.checkTimeout, run, o);
        if (c.cancelled || o.signal?.aborted) throw new Cancelled(attempt, phaseName(current));
        checks.push(c.record);
      }
      await guardLedger('check', false);
      await checkGit('a check');
      record.stepsRun.push('checks');
      record.checks = checks;
      await run.write(`${folder}/checks.json`, JSON.stringify(checks, null, 2) + '\n');
      // One read of the tree serves the diff, the scope check and the reviewer's "before".
      const afterChecks = await treeState(repo, { diff: true, base });
      const diffInside = `${folder}/diff.patch`;
      await run.write(diffInside, afterChecks.diff);
      record.evidencePaths.push(
        run.repoRelative(`${folder}/checks.json`),
        ...checks.flatMap((c) => [c.stdout, c.stderr]),
        run.repoRelative(diffInside),
      );
      const timeoutStop = checksTerminal(checks);
      if (timeoutStop) return await finishAttempt(timeoutStop, checks, diffInside);
      changed = afterChecks.changedFiles;
      record.changedFiles = changed;
      const scopeStop = scopeAfterChecksTerminal([
        ...disallowedFiles(changed, request.allowedGlobs),
        ...gitViolations,
      ]);
      if (scopeStop) return await finishAttempt(scopeStop, checks, diffInside);

      // 6. the reviewer, between two snapshots, over the exact diff it is shown
      const before = afterChecks.snapshot;
      const diffText = afterChecks.diff;
      const brief = await recorder.prepareBrief({
        diff: diffText,
        verification: JSON.stringify(checks, null, 2) + '\n',
        changeScope: changed.map((f) => `${f}\n`).join(''),
      });
      if (brief) {
        await run.writeJson(`${folder}/critic-brief.json`, brief.packet);
        record.briefId = brief.briefId;
        record.evidencePaths.push(run.repoRelative(`${folder}/critic-brief.json`));
      }
      enter({ kind: 'code-reviewer', attempt }, agents['code-reviewer'].timeoutSeconds);
      const reviewerPrompt = rolePrompt(request, 'code-reviewer', {
        attempt,
        changed_files: changed,
        diff_text: diffText,
        check_results: publicCheckResults(checks),
      });
      const reviewer = await runAgent(agents['code-reviewer'], reviewerPrompt, run, folder, env, o);
      record.usage = addUsage(record.usage ?? {}, agentUsage(reviewer.result));
      await guardLedger('code-reviewer', reviewer.cancelled);
      const reviewerEscaped = await checkGit('code-reviewer');
      const afterReview = await treeState(repo, { diff: true, base });
      const edited = reviewerEscaped.length > 0 || before !== afterReview.snapshot;
      await run.write(diffInside, afterReview.diff);
      record.stepsRun.push('code-reviewer');
      if (reviewer.result !== undefined)
        record.evidencePaths.push(run.repoRelative(`${folder}/code-reviewer-result.json`));

      // 7–8. exit code > edited > invalid output > verdict
      const decision = reviewDecision({ code: reviewer.code, edited, result: reviewer.result, checks });
      if (decision.kind === 'terminal') {
        const valid =
          decision.terminal.stop_reason === 'CODE_REVIEWER_PASS' ||
          decision.terminal.stop_reason === 'CODE_REVIEWER_BLOCKED';
        record.reviewer = valid ? decision.terminal.reviewer : null;
        return await finishAttempt(decision.terminal, checks, diffInside);
      }
      record.reviewer = decision.reviewer;
      lastReviewer = decision.reviewer;
      lastChecks = checks;
      lastDiff = diffInside;
      previousFindings = decision.previousFindings;
      if (attempt < request.maxAttempts) {
        pendingRecord = null;
        await recorder.recordAttempt(record);
      }
    }
    // 4. exhausted: the last attempt's record is the terminal one
    attemptsUsed = request.maxAttempts;
    return await finishAttempt(maxAttemptsTerminal(lastReviewer), lastChecks, lastDiff);
  } catch (error) {
    if (error instanceof Cancelled) {
      const marker = await run.writeJson('cancelled.json', {
        attempt: error.attempt,
        cancelled_at: new Date().toISOString(),
        phase: error.phase,
        run_id: o.runId,
      });
      await recorder.recordCancel(error.attempt, error.phase, run.repoRelative('cancelled.json'));
      return { kind: 'cancelled', marker, attempt: error.attempt, phase: error.phase };
    }
    if (error instanceof LedgerEdited) {
      // The ledger is no longer ours to record iterations into: the receipt says why, and the
      // epoch is closed as the receipt's BLOCKED/AGENT_FAILED maps (escalate), naming the edit.
      ledgerWasEdited = true;
      return await finish(error.terminal, pendingRecord?.checks ?? [], null, closeEnding);
    }
    if (error instanceof ArtifactWriteError) {
      const terminal: Terminal = {
        final_verdict: 'BLOCKED',
        stop_reason: 'AGENT_FAILED',
        reviewer: {
          verdict: 'BLOCKED',
          edited_files: false,
          findings: [`artifact write failed: ${error.message}`],
        },
      };
      return await finish(terminal, pendingRecord?.checks ?? [], null, closeEnding);
    }
    throw error;
  }

  async function finishAttempt(
    terminal: Terminal,
    checks: CheckRecord[],
    diffInside: string | null,
  ): Promise<HarnessResult> {
    const record = pendingRecord;
    return finish(terminal, checks, diffInside, (receipt, receiptPath) => {
      if (!record) return closeEnding(receipt, receiptPath);
      return { kind: 'attempt', outcome: { ...record, terminal: terminalOf(receipt), receiptPath } };
    });
  }
}
