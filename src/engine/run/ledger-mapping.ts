// How a harness run lands on the ledger: one epoch per
// run, one iteration per attempt, the explorer folded into attempt 1 (or one `escalate` record
// when it fails), the reviewer's verdict as the critic verdict over a brief built from the exact
// diff it saw. Pure: the driver hands in the facts and gets the `iterate` input back.
import type { CloseInput } from '../close';
import type { IterateInput } from '../iterate';
import type { Spend } from '../spend';
import type { Contract, CriticVerdict, Decision } from '../types';
import type { CheckRecord } from './receipt';
import type { ReviewerSummary, StopReason, Terminal, Verdict } from './stop-rules';

/** The rubric dimension a run measures when the contract declares it. */
export const FAILING_CHECKS = 'failing_checks';

export interface RunRequestFacts {
  objective: string;
  allowedGlobs: string[];
  checks: string[];
  maxAttempts: number;
  runId: string;
  runDir: string;
}

/**
 * The contract a run generates for a session that has none: purpose = objective, the globs as
 * expected outputs, iteration_limit = max attempts, success = checks 0 and reviewer PASS, and one
 * dimension, `failing_checks` (lower is better, target 0), measured after every attempt's checks.
 */
export function generatedContract(r: RunRequestFacts): Contract {
  const k = r.checks.length;
  const dimension =
    k > 0
      ? { baseline: k, target: 0, failure_threshold: k, direction: 'lower-is-better' as const }
      : {
          baseline: 0,
          target: 0,
          failure_threshold: 0,
          direction: 'lower-is-better' as const,
          must_not_regress: true,
        };
  return {
    purpose: r.objective,
    owner: 'loop-ledger run',
    starting_state: `a clean git work tree; harness run ${r.runId}`,
    inputs: [`objective: ${r.objective}`, ...r.checks.map((c) => `check: ${c}`)],
    expected_outputs: [...r.allowedGlobs],
    success_criteria: ['every deterministic check exits 0 and the code-reviewer says PASS'],
    failure_criteria: [
      'a changed file outside the allowed globs',
      'an agent fails or times out, a check times out, or the reviewer edits files or blocks',
      `no PASS within ${r.maxAttempts} attempt(s)`,
    ],
    dependencies: ['git'],
    iteration_limit: r.maxAttempts,
    timeout_behaviour:
      'the agent or check is killed (SIGTERM, 2 s, SIGKILL to its process group) and the run stops BLOCKED/TIMEOUT',
    escalation_path: `read ${r.runDir}/final-receipt.json and its findings; fix the blocker, then start a new run`,
    quality_rubric: [
      {
        dimension: FAILING_CHECKS,
        evidence_command: `cat ${r.runDir}/final-receipt.json`,
        weight: 100,
        hard_gate: false,
        ...dimension,
      },
    ],
  };
}

export const ATTEMPT_STEPS = ['coder', 'checks', 'code-reviewer'] as const;
export type AttemptStep = (typeof ATTEMPT_STEPS)[number];

export function attemptDirName(attempt: number): string {
  return String(attempt).padStart(2, '0');
}

export function stepAction(runId: string, attempt: number, step: AttemptStep): string {
  return `${runId}/${attemptDirName(attempt)}/${step}`;
}

export function explorerAction(runId: string): string {
  return `${runId}/explorer`;
}

/** The attempt numbers of `runId` recorded in these action lists (attempts 1..n, in order). */
export function recordedAttempts(runId: string, actions: readonly string[]): number[] {
  const prefix = `${runId}/`;
  const seen = new Set<number>();
  for (const action of actions) {
    if (!action.startsWith(prefix)) continue;
    const m = /^(\d{2,})\/coder$/.exec(action.slice(prefix.length));
    if (m) seen.add(Number(m[1]));
  }
  return [...seen].sort((a, b) => a - b);
}

const CRITIC_OF: Record<Verdict, { verdict: CriticVerdict; decision: Decision }> = {
  PASS: { verdict: 'PASS', decision: 'retain' },
  NEEDS_CHANGES: { verdict: 'REVISE', decision: 'revise' },
  BLOCKED: { verdict: 'ESCALATE', decision: 'escalate' },
};

/** What to do next after each kind of stop, for the `escalate` record. */
const NEXT_STEP: Record<StopReason, string> = {
  CODE_REVIEWER_PASS: 'Nothing: the run passed.',
  CODE_REVIEWER_BLOCKED: 'Resolve what the code-reviewer says blocks the change, then start a new run.',
  MAX_ATTEMPTS: 'Narrow the objective or raise --max-attempts, then start a new run.',
  DISALLOWED_FILE_CHANGE:
    'Revert the files outside the allowed globs (or widen --allow deliberately), then start a new run.',
  REVIEWER_EDITED_FILES: 'Revert the reviewer’s edits and make the reviewer read-only, then start a new run.',
  CHECK_FAILED: 'Fix the failing check, then start a new run.',
  INVALID_REVIEWER_OUTPUT:
    'Make the code-reviewer print one JSON object {verdict, findings}, then start a new run.',
  AGENT_FAILED:
    'Read the failing agent’s stderr in the run directory, repair the agent or its config, then start a new run.',
  TIMEOUT:
    'Raise the agent’s timeout_seconds or --check-timeout, or make the slow step faster, then start a new run.',
};

export interface AttemptFacts {
  runId: string;
  runDir: string;
  attempt: number;
  /** Attempt 1 carries the explorer's action. */
  withExplorer: boolean;
  /** The steps that ran to completion in this attempt. */
  stepsRun: AttemptStep[];
  changedFiles: string[];
  checks: CheckRecord[];
  /** Evidence written for this attempt (repo-relative). */
  evidencePaths: string[];
  /** The reviewer's parsed verdict, when it gave a valid one. */
  reviewer: ReviewerSummary | null;
  /** The brief id armed from the reviewer's diff, or null when the diff was empty. */
  briefId: string | null;
  /** Set when the attempt ended the run. */
  terminal: Terminal | null;
  /** The receipt's path, when the run ended. */
  receiptPath: string | null;
  /** Whether the session's rubric declares `failing_checks`. */
  measureFailingChecks: boolean;
  /** What the attempt's agents reported of cost and tokens (agent-usage.ts); absent: nothing. */
  usage?: Partial<Spend>;
}

/** A finding or the fixed sentence the critic's "next" falls back to. */
function criticNext(reviewer: ReviewerSummary): string {
  return (
    reviewer.findings[0] ??
    (reviewer.verdict === 'PASS'
      ? 'No further change: the reviewer passed it.'
      : 'Address the reviewer’s verdict.')
  );
}

function escalateFacts(
  terminal: Terminal,
  receiptPath: string | null,
): Pick<IterateInput, 'blocker' | 'evidence' | 'recommendedNext'> {
  const findings = terminal.reviewer.findings;
  return {
    blocker: findings.length > 0 ? `${terminal.stop_reason}: ${findings.join('; ')}` : terminal.stop_reason,
    evidence: receiptPath ?? 'final-receipt.json',
    recommendedNext: NEXT_STEP[terminal.stop_reason],
  };
}

/** The `iterate` input for one attempt (without `now`). */
export function attemptIteration(f: AttemptFacts): Omit<IterateInput, 'now'> {
  const actions = [
    ...(f.withExplorer ? [explorerAction(f.runId)] : []),
    ...f.stepsRun.map((s) => stepAction(f.runId, f.attempt, s)),
  ];
  const failing = f.checks.filter((c) => c.returncode !== 0).length;
  const input: Omit<IterateInput, 'now'> = {
    outcome: 'continue',
    actions,
    filesChanged: [...f.changedFiles],
    commandsRun: f.checks.map((c) => c.command),
    evidencePaths: [...f.evidencePaths, ...(f.receiptPath ? [f.receiptPath] : [])],
    measures: f.measureFailingChecks && f.stepsRun.includes('checks') ? [`${FAILING_CHECKS}=${failing}`] : [],
  };
  // Only what the agents reported: a record without cost or tokens reads as before.
  if (f.usage?.cost_usd !== undefined) input.costUsd = f.usage.cost_usd;
  if (f.usage?.tokens_in !== undefined) input.tokensIn = f.usage.tokens_in;
  if (f.usage?.tokens_out !== undefined) input.tokensOut = f.usage.tokens_out;
  const notes: string[] = [];
  if (f.reviewer) {
    const critic = CRITIC_OF[f.reviewer.verdict];
    if (f.briefId && input.evidencePaths && input.evidencePaths.length > 0) {
      input.criticBrief = f.briefId;
      input.criticVerdict = critic.verdict;
      input.criticNext = criticNext(f.reviewer);
      input.decision = critic.decision;
    } else {
      // An empty diff cannot be briefed (brief refuses blank input): the verdict lives in the note.
      notes.push(`code-reviewer ${f.reviewer.verdict} over an empty diff: ${criticNext(f.reviewer)}`);
    }
  }
  if (!f.terminal) {
    input.outcome = 'continue';
  } else if (f.terminal.final_verdict === 'PASS') {
    input.outcome = 'complete';
  } else if (f.terminal.stop_reason === 'MAX_ATTEMPTS') {
    input.outcome = 'stop';
  } else {
    input.outcome = 'escalate';
    Object.assign(input, escalateFacts(f.terminal, f.receiptPath));
  }
  if (f.terminal) notes.push(`run ${f.runId}: ${f.terminal.final_verdict}/${f.terminal.stop_reason}`);
  if (notes.length > 0) input.note = notes.join('\n');
  return input;
}

/** The one `escalate` record of a run whose explorer failed (attempt 0). */
export function explorerFailureIteration(
  runId: string,
  terminal: Terminal,
  receiptPath: string,
  evidencePaths: string[],
): Omit<IterateInput, 'now'> {
  return {
    outcome: 'escalate',
    actions: [],
    evidencePaths: [...evidencePaths, receiptPath],
    note: `run ${runId}: ${terminal.final_verdict}/${terminal.stop_reason} before attempt 1`,
    ...escalateFacts(terminal, receiptPath),
  };
}

/**
 * A cancelled run closes its epoch as `pause` (no iteration: the unfinished attempt is not a
 * record, and a pause record would count against the contract's iteration limit); the same
 * `--session` resumes it.
 */
export function cancelledClose(
  runId: string,
  attempt: number,
  phase: string,
  markerPath: string,
): CloseInput {
  return {
    outcome: 'pause',
    note: `run ${runId} cancelled during ${phase}${attempt > 0 ? ` of attempt ${attempt}` : ''} (marker ${markerPath}); re-run with the same --session to continue`,
  };
}

/**
 * A run that ends without an iteration to record (an agent edited the ledger, or the run's own
 * files could not be written) closes its epoch with the outcome its receipt maps to — for those
 * stops BLOCKED/AGENT_FAILED, so `escalate` with the receipt's reason and findings as the blocker.
 */
export function endedWithoutRecordClose(runId: string, terminal: Terminal, receiptPath: string): CloseInput {
  const note = `run ${runId}: ${terminal.final_verdict}/${terminal.stop_reason}; no iteration recorded for its last attempt`;
  if (terminal.final_verdict === 'PASS') return { outcome: 'complete', note };
  if (terminal.stop_reason === 'MAX_ATTEMPTS') return { outcome: 'stop', note };
  return { outcome: 'escalate', note, ...escalateFacts(terminal, receiptPath) };
}
