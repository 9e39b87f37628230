// The harness's terminal states and their precedence, as pure decisions over the
// facts a driver gathered: exit codes, snapshot comparisons, changed files, check results and the
// reviewer's parsed stdout. The driver runs processes and git; every "what now?" is answered here.
import { disallowedFiles } from './fnmatch';

export const VERDICTS = ['PASS', 'NEEDS_CHANGES', 'BLOCKED'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** The nine stop reasons of `loop.final_receipt.v1`. CHECK_FAILED is in the enum but never emitted. */
export const STOP_REASONS = [
  'CODE_REVIEWER_PASS',
  'CODE_REVIEWER_BLOCKED',
  'MAX_ATTEMPTS',
  'DISALLOWED_FILE_CHANGE',
  'REVIEWER_EDITED_FILES',
  'CHECK_FAILED',
  'INVALID_REVIEWER_OUTPUT',
  'AGENT_FAILED',
  'TIMEOUT',
] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/** An agent killed at its timeout. */
export const AGENT_TIMEOUT_CODE = -124;
/** A deterministic check killed at `--check-timeout`. */
export const CHECK_TIMEOUT_CODE = -125;
/** The program could not be started. */
export const START_FAILED_CODE = 127;

export type Role = 'explorer' | 'coder' | 'code-reviewer';

export interface ReviewerSummary {
  verdict: Verdict;
  edited_files: boolean;
  findings: string[];
}

export interface Terminal {
  final_verdict: Verdict;
  stop_reason: StopReason;
  reviewer: ReviewerSummary;
}

/** What a check contributes to the decisions (the driver keeps the full record). */
export interface CheckFacts {
  returncode: number;
  timed_out: boolean;
}

function blocked(stop_reason: StopReason, findings: string[], edited_files = false): Terminal {
  return { final_verdict: 'BLOCKED', stop_reason, reviewer: { verdict: 'BLOCKED', edited_files, findings } };
}

/** `<role> timed out | start failed | failed`, or nothing for exit 0. */
export function agentFailureFinding(role: Role, code: number): string | null {
  if (code === 0) return null;
  if (code === AGENT_TIMEOUT_CODE) return `${role} timed out`;
  if (code === START_FAILED_CODE) return `${role} start failed`;
  return `${role} failed`;
}

function failureReason(code: number): StopReason {
  return code === AGENT_TIMEOUT_CODE ? 'TIMEOUT' : 'AGENT_FAILED';
}

/** After the explorer: a non-zero exit or any edit ends the run before attempt 1. */
export function explorerTerminal(code: number, edited: boolean): Terminal | null {
  if (code === 0 && !edited) return null;
  const findings: string[] = [];
  const failure = agentFailureFinding('explorer', code);
  if (failure) findings.push(failure);
  if (edited) findings.push('explorer edited files');
  // An explorer that only edited exited 0: AGENT_FAILED, as the original.
  return blocked(failureReason(code), findings);
}

/** After the coder: out-of-scope files dominate; otherwise a non-zero exit blocks. */
export function coderTerminal(code: number, violations: readonly string[]): Terminal | null {
  if (code === 0 && violations.length === 0) return null;
  const failure = agentFailureFinding('coder', code);
  if (violations.length > 0) return blocked('DISALLOWED_FILE_CHANGE', failure ? [failure] : []);
  return blocked(failureReason(code), [failure as string]);
}

/** After the checks ran: a timed-out check blocks (its side effects are checked next). */
export function checksTerminal(checks: readonly CheckFacts[]): Terminal | null {
  if (checks.some((c) => c.timed_out)) return blocked('TIMEOUT', ['deterministic check timed out']);
  return null;
}

/** After the checks: a check that left an out-of-scope file behind blocks before the reviewer runs. */
export function scopeAfterChecksTerminal(violations: readonly string[]): Terminal | null {
  return violations.length > 0 ? blocked('DISALLOWED_FILE_CHANGE', []) : null;
}

/** At least one check, and all returned 0. */
export function checksPassed(checks: readonly CheckFacts[]): boolean {
  return checks.length > 0 && checks.every((c) => c.returncode === 0);
}

/** The reviewer's stdout read as `{verdict, findings}`, or null when it is not a valid verdict object. */
export function parseReviewerResult(value: unknown): { verdict: Verdict; findings: string[] } | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const verdict = record.verdict;
  if (typeof verdict !== 'string' || !(VERDICTS as readonly string[]).includes(verdict)) return null;
  const raw = record.findings;
  if (raw === undefined || raw === null) return { verdict: verdict as Verdict, findings: [] };
  if (!Array.isArray(raw) || !raw.every((f) => typeof f === 'string')) return null;
  return { verdict: verdict as Verdict, findings: [...(raw as string[])] };
}

export interface ReviewFacts {
  code: number;
  edited: boolean;
  /** The reviewer's stdout parsed as JSON (undefined when it was not JSON). */
  result: unknown;
  checks: readonly CheckFacts[];
}

export type ReviewDecision =
  | { kind: 'terminal'; terminal: Terminal }
  /** Another attempt, with these findings handed to the coder. */
  | { kind: 'repair'; reviewer: ReviewerSummary; previousFindings: string[] };

/** After the reviewer: exit code > edited > invalid output > verdict. */
export function reviewDecision(facts: ReviewFacts): ReviewDecision {
  const { code, edited } = facts;
  if (code !== 0) {
    const finding = agentFailureFinding('code-reviewer', code) as string;
    return { kind: 'terminal', terminal: blocked(failureReason(code), [finding], edited) };
  }
  if (edited) {
    return {
      kind: 'terminal',
      terminal: blocked('REVIEWER_EDITED_FILES', ['code-reviewer edited files'], true),
    };
  }
  const parsed = parseReviewerResult(facts.result);
  if (!parsed) {
    return { kind: 'terminal', terminal: blocked('INVALID_REVIEWER_OUTPUT', ['invalid code-reviewer JSON']) };
  }
  const reviewer: ReviewerSummary = {
    verdict: parsed.verdict,
    edited_files: false,
    findings: parsed.findings,
  };
  const passed = checksPassed(facts.checks);
  if (passed && parsed.verdict === 'PASS') {
    return {
      kind: 'terminal',
      terminal: { final_verdict: 'PASS', stop_reason: 'CODE_REVIEWER_PASS', reviewer },
    };
  }
  if (parsed.verdict === 'BLOCKED') {
    return {
      kind: 'terminal',
      terminal: { final_verdict: 'BLOCKED', stop_reason: 'CODE_REVIEWER_BLOCKED', reviewer },
    };
  }
  const previousFindings = [...parsed.findings];
  if (!passed) previousFindings.push('deterministic checks failed');
  return { kind: 'repair', reviewer, previousFindings };
}

/** Attempts exhausted: the last attempt's reviewer stands. */
export function maxAttemptsTerminal(lastReviewer: ReviewerSummary): Terminal {
  return { final_verdict: 'NEEDS_CHANGES', stop_reason: 'MAX_ATTEMPTS', reviewer: lastReviewer };
}

/**
 * Every terminal path ends here with the final tree's changed files: any file outside the allowed
 * globs overrides the decision with DISALLOWED_FILE_CHANGE (and `edited_files: false`), keeping
 * the earlier findings after one `disallowed file: <path>` line per violation.
 */
export function finishTerminal(
  terminal: Terminal,
  changedFiles: readonly string[],
  allowed: readonly string[],
  /** Changes out of the working tree's sight (commits aside, git folder, index flags): always violations. */
  gitViolations: readonly string[] = [],
): Terminal {
  const reviewer: ReviewerSummary = {
    verdict: terminal.reviewer.verdict,
    edited_files: terminal.reviewer.edited_files === true,
    findings: [...terminal.reviewer.findings],
  };
  const violations = disallowedFiles(changedFiles, allowed);
  if (violations.length === 0 && gitViolations.length === 0) return { ...terminal, reviewer };
  return blocked('DISALLOWED_FILE_CHANGE', [
    ...violations.map((p) => `disallowed file: ${p}`),
    ...gitViolations.map((v) => `scope violation: ${v}`),
    ...reviewer.findings,
  ]);
}

/**
 * The ledger changed under the harness while an agent or check ran: the run cannot be trusted to
 * go on (AGENT_FAILED), and the finding names who ran and what changed.
 */
export function ledgerEditedTerminal(role: Role | 'check', what: string): Terminal {
  const who = role === 'check' ? 'a deterministic check' : role;
  return blocked('AGENT_FAILED', [`${who} edited the ledger: ${what}`]);
}
