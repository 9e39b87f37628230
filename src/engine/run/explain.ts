// Stop reasons in words, for people reading a receipt (the receipt viewer, reports).
import type { StopReason } from './stop-rules';

export const STOP_REASON_WORDS: Record<StopReason, string> = {
  CODE_REVIEWER_PASS:
    'Every check exited 0, the code-reviewer said PASS without editing anything, and every changed file is inside the allowed globs.',
  CODE_REVIEWER_BLOCKED:
    'The code-reviewer answered BLOCKED: it judged that more attempts cannot fix this without a person.',
  MAX_ATTEMPTS:
    'Every attempt was used without a PASS: the checks kept failing or the reviewer kept asking for changes.',
  DISALLOWED_FILE_CHANGE:
    'A file outside the allowed globs changed (by an agent or a check). This overrides every other outcome.',
  REVIEWER_EDITED_FILES: 'The code-reviewer changed the work tree; a reviewer must be read-only.',
  CHECK_FAILED:
    'A deterministic check failed (this reason is in the schema but the harness repairs failing checks instead).',
  INVALID_REVIEWER_OUTPUT:
    'The code-reviewer did not print one JSON object with a verdict of PASS, NEEDS_CHANGES or BLOCKED and a list of findings.',
  AGENT_FAILED:
    'An agent exited with an error, could not be started, edited files it must not touch (the explorer, or the ledger), or a run file could not be written.',
  TIMEOUT: 'An agent or a deterministic check ran past its timeout and its process group was killed.',
};

/** A check's return code in words (timeouts and start failures are not exit codes). */
export function returnCodeWords(returncode: number): string {
  if (returncode === -125) return 'timed out (check)';
  if (returncode === -124) return 'timed out (agent)';
  if (returncode === 127) return 'could not start (127)';
  if (returncode < 0) return `killed by signal ${-returncode}`;
  return `exit ${returncode}`;
}
