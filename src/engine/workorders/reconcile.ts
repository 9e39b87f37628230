// The reconcile table (`reconcile-table`): one read-only row per work order carrying every fact
// the recovery branches key on, and the disposition table that routes each row. TERMINAL
// (a HALT marker, or a sidecar with `halted: true`) is checked before status, everywhere.
import { ignoredPath } from '../run/changed-files';
import { disallowedFiles } from '../run/fnmatch';
import { frontmatterScalars } from './frontmatter';
import { compareBytes, shortId } from './ids';
import { alt, objectOrEmpty, path } from './jq';

/** What the driver read from disk for one work order (texts undefined when absent). */
export interface WoFacts {
  fileName: string;
  text: string;
  run?: string;
  review?: string;
  critique?: string;
  halt?: string;
}

export interface ReconcileRow {
  wo_id: string;
  status: string;
  terminal: boolean;
  halted: unknown;
  halt_reason: unknown;
  checkpoint_before: unknown;
  checkpoint_after: unknown;
  has_run_state: boolean;
  has_review: boolean;
  review_verdict: unknown;
  has_critique: boolean;
  critique_blocking: unknown;
  halt_marker_present: boolean;
}

export function reconcileRow(facts: WoFacts): ReconcileRow {
  const [fmId = '', fmStatus = ''] = frontmatterScalars(facts.text, ['id', 'status']);
  const id = shortId(facts.fileName, fmId);
  const status = fmStatus || 'unknown';
  const run = objectOrEmpty(facts.run);
  const review = objectOrEmpty(facts.review);
  const critique = objectOrEmpty(facts.critique);
  const haltPresent = facts.halt !== undefined;
  const marker = haltPresent ? objectOrEmpty(facts.halt) : {};
  const halted = alt(run.halted, false);
  return {
    wo_id: id,
    status,
    terminal: haltPresent || halted === true,
    halted,
    halt_reason: alt(alt(marker.reason, run.halt_reason), null),
    checkpoint_before: alt(run.checkpoint_before, null),
    checkpoint_after: alt(run.checkpoint_after, null),
    has_run_state: facts.run !== undefined,
    has_review: facts.review !== undefined,
    review_verdict: alt(path(review, 'gate_specific', 'overall_verdict'), 'missing'),
    has_critique: facts.critique !== undefined,
    critique_blocking: alt(critique.blocking, false),
    halt_marker_present: haltPresent,
  };
}

export interface ReconcileTable {
  rows: ReconcileRow[];
  stderr: string;
}

/** Rows in file-name order and the summary line. */
export function reconcileTable(all: WoFacts[]): ReconcileTable {
  const sorted = [...all].sort((a, b) => compareBytes(a.fileName, b.fileName));
  const rows = sorted.map(reconcileRow);
  const terminal = rows.filter((row) => row.terminal).length;
  const ready = rows.filter((row) => row.status === 'ready' && !row.terminal).length;
  return { rows, stderr: `wo-reconcile-table wos=${rows.length} terminal=${terminal} ready=${ready}` };
}

/** The recovery action for one row (the first matching branch wins). */
export type Disposition =
  | 'escalate' // terminal: surfaced at exit only
  | 'skip' // done
  | 'wait' // blocked on a dependency that is not done
  | 'dispatch' // fresh dispatch (or a requeue/promotion first)
  | 'redispatch' // ready with a sidecar but no checkpoint_after: crashed before the flip
  | 'reset' // in_progress, no checkpoint_after: crashed mid-build → reset to cp, needs_rework
  | 'resume_review'
  | 'resume_critique'
  | 'rederive_verdict'
  | 'unknown_status';

/** In words, for the view ("resume at review"). */
export const DISPOSITION_WORDS: Record<Disposition, string> = {
  escalate: 'terminal: escalate',
  skip: 'done',
  wait: 'waiting on a dependency',
  dispatch: 'dispatch next',
  redispatch: 'crashed before the build: re-dispatch (counts an attempt)',
  reset: 'crashed mid-build: reset to checkpoint, rework',
  resume_review: 'resume at review',
  resume_critique: 'resume at critique',
  rederive_verdict: 'resume at verdict',
  unknown_status: 'unknown status: needs a human',
};

/**
 * `collectedNoChange`: the sidecar records a collect whose build changed nothing
 * (`produced_changes: false`) — our fix of the original's ambiguous `checkpoint_after: null`,
 * so such a build resumes at review instead of being taken for a crash mid-build.
 */
export function disposition(row: ReconcileRow, depsDone: boolean, collectedNoChange = false): Disposition {
  if (row.terminal) return 'escalate';
  switch (row.status) {
    case 'done':
      return 'skip';
    case 'blocked':
      return depsDone ? 'dispatch' : 'wait';
    case 'needs_rework':
      return 'dispatch';
    case 'ready':
      return row.has_run_state && row.checkpoint_after === null ? 'redispatch' : 'dispatch';
    case 'in_progress':
      if (row.checkpoint_after === null && !collectedNoChange) return 'reset';
      if (!row.has_review) return 'resume_review';
      if (!row.has_critique) return 'resume_critique';
      return 'rederive_verdict';
    default:
      return 'unknown_status';
  }
}

/**
 * What a build that crashed mid-way left behind and recovery removes before the work order is
 * rebuilt: the untracked files inside its own "Files to touch" (the harness's fnmatch rules).
 * `untracked` must already exclude git-ignored files. Loop Ledger's own `.loop/` folders, and
 * anything outside the declared scope, are never the crashed build's to remove: a work order
 * with no declared files has no scope, so nothing is removed.
 */
export function crashLeftovers(untracked: readonly string[], declared: readonly string[]): string[] {
  if (declared.length === 0) return [];
  const candidates = untracked.filter((p) => !ignoredPath(p));
  const outside = new Set(disallowedFiles(candidates, declared));
  return candidates.filter((p) => !outside.has(p));
}

/**
 * The default builder (a `loop-ledger run` harness) refuses a worktree with changes of its own:
 * those are the paths, outside Loop Ledger's own folders, that make it dirty. Non-empty ⇒ the
 * run stops before the dispatch (no attempt spent, no HALT): a work order that never ran is not
 * at fault for a tree someone else left dirty.
 */
export function dirtyBeforeBuild(changed: readonly string[]): string[] {
  return changed.filter((p) => !ignoredPath(p));
}
