// What the receipt viewer shows, computed from the receipt file alone: no vscode here, so the
// unit tests check it directly. Paths the page may ask to open are listed in `openable`.
import { matchesAny } from '../../engine/run/fnmatch';
import { returnCodeWords, STOP_REASON_WORDS } from '../../engine/run/explain';
import { validateFinalReceipt } from '../../engine/run/receipt';
import type { StopReason } from '../../engine/run/stop-rules';

export interface ReceiptModel {
  runId: string;
  objective: string;
  verdict: string;
  stopReason: string;
  reasonWords: string;
  attempts: string;
  files: { path: string; inScope: boolean }[];
  checks: {
    command: string;
    returncode: number | null;
    words: string;
    timedOut: boolean;
    stdoutExcerpt: string;
    stderrExcerpt: string;
    stdout: string | null;
    stderr: string | null;
  }[];
  reviewer: { verdict: string; editedFiles: boolean; findings: string[] };
  finalDiff: string | null;
  validatorErrors: string[];
  /** Repo-relative paths the page may ask the host to open. */
  openable: string[];
}

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const strList = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

export function receiptModel(data: Record<string, unknown>): ReceiptModel {
  const allowed = strList(data.allowed_globs);
  const reviewer = (data.reviewer ?? {}) as Record<string, unknown>;
  const artifacts = (data.artifacts ?? {}) as Record<string, unknown>;
  const reason = str(data.stop_reason, '?');
  const checks = (Array.isArray(data.checks) ? data.checks : []).map((c) => {
    const check = (c ?? {}) as Record<string, unknown>;
    const code = typeof check.returncode === 'number' ? check.returncode : null;
    return {
      command: str(check.command),
      returncode: code,
      words: code === null ? 'no return code' : returnCodeWords(code),
      timedOut: check.timed_out === true,
      stdoutExcerpt: str(check.stdout_excerpt),
      stderrExcerpt: str(check.stderr_excerpt),
      stdout: typeof check.stdout === 'string' ? check.stdout : null,
      stderr: typeof check.stderr === 'string' ? check.stderr : null,
    };
  });
  const finalDiff = str(artifacts.final_diff) || null;
  const files = strList(data.changed_files).map((path) => ({ path, inScope: matchesAny(path, allowed) }));
  return {
    runId: str(data.run_id, '?'),
    objective: str(data.objective),
    verdict: str(data.final_verdict, '?'),
    stopReason: reason,
    reasonWords: STOP_REASON_WORDS[reason as StopReason] ?? 'Not a stop reason of loop.final_receipt.v1.',
    attempts: `${String(data.attempts_used)} of ${String(data.max_attempts)} attempt(s)`,
    files,
    checks,
    reviewer: {
      verdict: str(reviewer.verdict, '?'),
      editedFiles: reviewer.edited_files === true,
      findings: strList(reviewer.findings),
    },
    finalDiff,
    validatorErrors: validateFinalReceipt(data),
    openable: [
      ...checks.flatMap((c) => [c.stdout, c.stderr]).filter((p): p is string => p !== null),
      ...(finalDiff ? [finalDiff] : []),
      ...files.map((f) => f.path),
    ],
  };
}
