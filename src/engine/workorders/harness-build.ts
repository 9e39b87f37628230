// The default builder of `wo run`: one `loop-ledger run` harness per attempt, whose allowed globs
// are the work order's "Files to touch" and whose checks are its runnable acceptance. These are
// the rules of that mapping — what to ask the harness, how its receipt becomes the per-work-order
// review, and which committed paths a build was never allowed to touch. No I/O here.
import { ignoredPath } from '../run/changed-files';
import { disallowedFiles } from '../run/fnmatch';
import { filesToTouch } from './body';
import { isObject } from './jq';

/**
 * The runnable acceptance of a work order: every backticked span on a line of `## Goal` that
 * starts with "Acceptance" (after an optional list marker or bold), e.g.
 * `- **Acceptance:** \`npm test\``. Each span is one shell command the harness runs as a check.
 */
export function acceptanceChecks(text: string): string[] {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const start = lines.findIndex((l) => /^##\s+Goal\s*$/i.test(l));
  if (start < 0) return [];
  const checks: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break;
    if (!/^\s*(?:[-*]\s+)?(?:\*\*|__)?Acceptance\b/i.test(line)) continue;
    for (const m of line.matchAll(/`([^`]+)`/g)) {
      const command = (m[1] ?? '').trim();
      if (command) checks.push(command);
    }
  }
  return checks;
}

export interface HarnessPlan {
  allow: string[];
  checks: string[];
}

export type HarnessPlanResult = { ok: true; plan: HarnessPlan } | { ok: false; reason: string };

/**
 * What the harness is asked to enforce. A work order with no "Files to touch" or no runnable
 * acceptance cannot be built this way (the harness needs both to ever PASS): it is refused with
 * the dispatch gate's own words, before an attempt is spent.
 */
export function harnessPlan(woText: string): HarnessPlanResult {
  const allow = filesToTouch(woText);
  if (allow.length === 0) return { ok: false, reason: 'no_files_declared' };
  const checks = acceptanceChecks(woText);
  if (checks.length === 0) return { ok: false, reason: 'acceptance_not_runnable' };
  return { ok: true, plan: { allow, checks } };
}

/** The `loop-ledger run` arguments for one attempt (after the program and `run`). */
export function harnessArgs(input: {
  woFile: string;
  agentConfig: string;
  plan: HarnessPlan;
  worktree: string;
  session: string;
  /** false (`wo run --no-checkpoint`): the harness takes no checkpoint of its own either. */
  checkpoint?: boolean;
}): string[] {
  return [
    '--objective-file',
    input.woFile,
    '--agent-config',
    input.agentConfig,
    ...input.plan.allow.flatMap((glob) => ['--allow', glob]),
    ...input.plan.checks.flatMap((check) => ['--check', check]),
    '--root',
    input.worktree,
    '--session',
    input.session,
    ...(input.checkpoint === false ? ['--no-checkpoint'] : []),
  ];
}

/** The harness session of one attempt: `wo-03-a2` (a valid session id for any short id). */
export function harnessSession(wo: string, attempt: number): string {
  return `${wo}-a${attempt}`;
}

/**
 * Committed paths the build was not allowed to change: anything outside "Files to touch" (the
 * harness's fnmatch rules), except the harness's own `.loop/` folder. Checked on the commit
 * range, so a coder that commits by itself cannot slip past the harness's working-tree check.
 */
export function undeclaredPaths(changed: readonly string[], allow: readonly string[]): string[] {
  return disallowedFiles(
    changed.filter((p) => !ignoredPath(p)),
    allow,
  );
}

/** The build record `wo-NN.build.json`: which harness run built which attempt. */
export interface BuildRecord {
  wo_id: string;
  attempt: number;
  builder: 'loop-ledger run';
  exit_code: number | null;
  final_verdict: string | null;
  stop_reason: string | null;
  run_dir: string | null;
  findings: string[];
  /** Set when the harness refused before writing a receipt (exit 2): its own words. */
  refusal: string | null;
  recorded_at: string;
}

/** `{final_verdict, run_dir}` (the harness's stdout) and the receipt, as one record. */
export function buildRecord(input: {
  wo: string;
  attempt: number;
  exitCode: number | null;
  stdout: string;
  stderrTail: string;
  receipt: unknown;
  now: string;
}): BuildRecord {
  let printed: unknown;
  try {
    printed = JSON.parse(input.stdout);
  } catch {
    printed = undefined;
  }
  const p = isObject(printed) ? printed : {};
  const r = isObject(input.receipt) ? input.receipt : {};
  const reviewer = isObject(r.reviewer) ? r.reviewer : {};
  const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  return {
    wo_id: input.wo,
    attempt: input.attempt,
    builder: 'loop-ledger run',
    exit_code: input.exitCode,
    final_verdict: text(r.final_verdict) ?? text(p.final_verdict),
    stop_reason: text(r.stop_reason),
    run_dir: text(p.run_dir),
    findings: Array.isArray(reviewer.findings) ? reviewer.findings.map(String) : [],
    refusal: harnessRefused(input.exitCode, input.receipt) ? input.stderrTail || 'refused' : null,
    recorded_at: input.now,
  };
}

/**
 * The harness refused the request before running any agent (exit 2, no receipt): a bad config,
 * a worktree that is not clean (e.g. files a crashed build left untracked). Retrying cannot help,
 * so the loop makes it TERMINAL (`builder_refused`) instead of spending the remaining attempts.
 */
export function harnessRefused(exitCode: number | null, receipt: unknown): boolean {
  return exitCode === 2 && !isObject(receipt);
}

/**
 * The per-work-order review under the default builder: the harness's code-reviewer already
 * judged the attempt against its checks, so the receipt is the review — `pass` only for a PASS
 * receipt of this very attempt; anything else (no record, another attempt's, a refusal, BLOCKED,
 * NEEDS_CHANGES) is `fail`.
 */
export function reviewFromBuild(record: unknown, wo: string, attempt: number, now: string) {
  const r = isObject(record) ? record : {};
  const ours = r.wo_id === wo && r.attempt === attempt;
  const pass = ours && r.final_verdict === 'PASS' && r.exit_code === 0;
  return {
    gate_specific: { overall_verdict: pass ? 'pass' : 'fail' },
    reviewer: 'loop-ledger run receipt',
    final_verdict: ours ? (r.final_verdict ?? null) : null,
    stop_reason: ours ? (r.stop_reason ?? null) : 'no_build_record',
    run_dir: ours ? (r.run_dir ?? null) : null,
    findings: ours && Array.isArray(r.findings) ? r.findings : [],
    recorded_at: now,
  };
}
