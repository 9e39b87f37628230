// `final-receipt.json` (`loop.final_receipt.v1`): its shape, how a run's terminal state becomes
// one, and the validator's rules, collected rather than stopping at the first.
import { matchesAny } from './fnmatch';
import {
  STOP_REASONS,
  VERDICTS,
  type ReviewerSummary,
  type StopReason,
  type Terminal,
  type Verdict,
} from './stop-rules';

export const FINAL_RECEIPT_SCHEMA = 'loop.final_receipt.v1';

/** One deterministic check as `checks.json` and the receipt record it. */
export interface CheckRecord {
  command: string;
  returncode: number;
  /** Paths of the full logs (repo-relative here; the original wrote absolute ones). */
  stdout: string;
  stderr: string;
  stdout_excerpt: string;
  stderr_excerpt: string;
  timed_out: boolean;
}

export interface FinalReceipt {
  schema: typeof FINAL_RECEIPT_SCHEMA;
  run_id: string;
  objective: string;
  final_verdict: Verdict;
  stop_reason: StopReason;
  attempts_used: number;
  max_attempts: number;
  allowed_globs: string[];
  changed_files: string[];
  checks: CheckRecord[];
  reviewer: ReviewerSummary;
  artifacts: { run_dir: string; final_diff: string };
}

/** Excerpts keep the first 2000 characters (code points, as Python slices). */
export const EXCERPT_CHARS = 2000;

export function excerpt(text: string): string {
  if (text.length <= EXCERPT_CHARS) return text;
  return Array.from(text).slice(0, EXCERPT_CHARS).join('');
}

export interface ReceiptFacts {
  runId: string;
  objective: string;
  terminal: Terminal;
  attemptsUsed: number;
  maxAttempts: number;
  allowedGlobs: string[];
  changedFiles: string[];
  checks: CheckRecord[];
  runDir: string;
  finalDiff: string;
}

/** The receipt, keys sorted at the top level as the original writes them. */
export function buildReceipt(f: ReceiptFacts): FinalReceipt {
  return {
    allowed_globs: [...f.allowedGlobs],
    artifacts: { final_diff: f.finalDiff, run_dir: f.runDir },
    attempts_used: f.attemptsUsed,
    changed_files: [...f.changedFiles],
    checks: f.checks,
    final_verdict: f.terminal.final_verdict,
    max_attempts: f.maxAttempts,
    objective: f.objective,
    reviewer: {
      edited_files: f.terminal.reviewer.edited_files,
      findings: [...f.terminal.reviewer.findings],
      verdict: f.terminal.reviewer.verdict,
    },
    run_id: f.runId,
    schema: FINAL_RECEIPT_SCHEMA,
    stop_reason: f.terminal.stop_reason,
  };
}

/** Not absolute and no `..` segment (`\` read as `/`). */
export function isSafeRelativePath(path: unknown): boolean {
  if (typeof path !== 'string' || path === '') return false;
  const p = path.replace(/\\/g, '/');
  if (p.startsWith('/')) return false;
  return !p.split('/').includes('..');
}

/** An integer, and not a boolean (Python's `isinstance(True, int)` is true; ours is not). */
function isInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((x) => typeof x === 'string');
}

const REQUIRED_KEYS = [
  'allowed_globs',
  'artifacts',
  'attempts_used',
  'changed_files',
  'checks',
  'final_verdict',
  'max_attempts',
  'objective',
  'reviewer',
  'run_id',
  'schema',
  'stop_reason',
];

const sortedList = (values: readonly string[]) =>
  `[${[...values]
    .sort()
    .map((v) => `'${v}'`)
    .join(', ')}]`;

/** Every error the validator finds in a `loop.final_receipt.v1` object (empty when valid). */
export function validateFinalReceipt(data: Record<string, unknown>): string[] {
  const errors: string[] = [];
  for (const key of REQUIRED_KEYS) {
    if (!(key in data)) errors.push(`receipt: missing required key '${key}'`);
  }
  if (data.schema !== FINAL_RECEIPT_SCHEMA) errors.push(`receipt.schema: expected '${FINAL_RECEIPT_SCHEMA}'`);
  for (const key of ['run_id', 'objective']) {
    const value = data[key];
    if (typeof value !== 'string' || value === '') errors.push(`receipt.${key}: expected non-empty string`);
  }

  const { final_verdict: verdict, stop_reason: reason, attempts_used: used, max_attempts: max } = data;
  if (!(VERDICTS as readonly unknown[]).includes(verdict))
    errors.push(`receipt.final_verdict: must be one of ${sortedList(VERDICTS)}`);
  if (!(STOP_REASONS as readonly unknown[]).includes(reason))
    errors.push(`receipt.stop_reason: must be one of ${sortedList(STOP_REASONS)}`);
  if (!isInt(used) || used < 0) errors.push('receipt.attempts_used: expected non-negative integer');
  if (!isInt(max) || max < 1) errors.push('receipt.max_attempts: expected integer >= 1');
  if (isInt(used) && isInt(max) && used > max) errors.push('receipt.attempts_used: must be <= max_attempts');

  const allowed = data.allowed_globs;
  const allowedList = isStringList(allowed) && allowed.length > 0 ? allowed : [];
  if (allowedList.length === 0) errors.push('receipt.allowed_globs: expected non-empty list of strings');

  const changed = data.changed_files;
  if (!isStringList(changed)) {
    errors.push('receipt.changed_files: expected list of strings');
  } else if (reason !== 'DISALLOWED_FILE_CHANGE') {
    for (const path of changed) {
      if (!isSafeRelativePath(path) || !matchesAny(path, allowedList))
        errors.push(`receipt.changed_files: ${JSON.stringify(path)} is outside allowed_globs`);
    }
  }

  let checks: Record<string, unknown>[] = [];
  if (!Array.isArray(data.checks)) {
    errors.push('receipt.checks: expected list');
  } else {
    checks = data.checks.filter(
      (c): c is Record<string, unknown> => c !== null && typeof c === 'object' && !Array.isArray(c),
    );
    if (checks.length !== data.checks.length) errors.push('receipt.checks: all entries must be objects');
    checks.forEach((check, i) => {
      if (typeof check.command !== 'string' || check.command === '')
        errors.push(`receipt.checks[${i}].command: expected non-empty string`);
      if (!isInt(check.returncode)) errors.push(`receipt.checks[${i}].returncode: expected integer`);
    });
  }

  const reviewerRaw = data.reviewer;
  let reviewer: Record<string, unknown> = {};
  if (reviewerRaw === null || typeof reviewerRaw !== 'object' || Array.isArray(reviewerRaw)) {
    errors.push('receipt.reviewer: expected object');
  } else {
    reviewer = reviewerRaw as Record<string, unknown>;
    if (!(VERDICTS as readonly unknown[]).includes(reviewer.verdict))
      errors.push(`receipt.reviewer.verdict: must be one of ${sortedList(VERDICTS)}`);
    if (typeof reviewer.edited_files !== 'boolean')
      errors.push('receipt.reviewer.edited_files: expected boolean');
    if ('findings' in reviewer && !Array.isArray(reviewer.findings))
      errors.push('receipt.reviewer.findings: expected list');
  }

  const artifacts = data.artifacts;
  if (artifacts === null || typeof artifacts !== 'object' || Array.isArray(artifacts)) {
    errors.push('receipt.artifacts: expected object');
  } else {
    for (const key of ['run_dir', 'final_diff']) {
      const value = (artifacts as Record<string, unknown>)[key];
      if (isTruthy(value) && !isSafeRelativePath(value))
        errors.push(`receipt.artifacts.${key}: expected safe relative path`);
    }
  }

  const passed = checks.length > 0 && checks.every((c) => c.returncode === 0);
  if (verdict === 'PASS') {
    if (reviewer.verdict !== 'PASS')
      errors.push('receipt.final_verdict: PASS requires reviewer.verdict PASS');
    if (!passed)
      errors.push('receipt.final_verdict: PASS requires at least one check and all checks returncode 0');
    if (reviewer.edited_files !== false)
      errors.push('receipt.final_verdict: PASS requires reviewer.edited_files false');
    if (reason !== 'CODE_REVIEWER_PASS') errors.push('receipt.stop_reason: PASS requires CODE_REVIEWER_PASS');
  }
  if (verdict === 'BLOCKED' && reason === 'CODE_REVIEWER_PASS')
    errors.push('receipt.stop_reason: BLOCKED cannot use CODE_REVIEWER_PASS');
  if (verdict === 'NEEDS_CHANGES' && reason !== 'MAX_ATTEMPTS')
    errors.push('receipt.stop_reason: NEEDS_CHANGES requires MAX_ATTEMPTS');
  return errors;
}

/** Python truthiness for the JSON values an artifacts entry can hold. */
export function isTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value as object).length > 0;
  return true;
}

/** The validator's one-line verdict for a valid receipt, with or without `--print-summary`. */
export function validSummary(data: Record<string, unknown>, summary: boolean): string {
  if (!summary) return 'LOOP RECEIPT VALID';
  return `LOOP RECEIPT VALID: ${String(data.final_verdict)} after ${String(data.attempts_used)} attempt(s)`;
}
