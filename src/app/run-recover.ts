// A run whose receipt was written but whose ending never reached the ledger (the harness was
// killed between the two writes) is finished from its files by the next run of the session:
// the ending saved just before the receipt (RUN_ENDING_FILE) is recorded once — the check and
// the write happen under the ledger's lock, so two runs racing record it once — and the new run
// then starts as after any finished run.
import { join } from 'node:path';
import { epochRecords } from '../engine/ledger-view';
import { stepAction } from '../engine/harness/ledger-mapping';
import type { Ledger } from '../engine/types';
import {
  RUN_ENDING_FILE,
  type AttemptOutcome,
  type BriefMaterial,
  type RunEnding,
} from '../drivers/harness/harness';
import { requireLedger, updateLedger } from './ledger-access';
import { LedgerRecorder } from './run-ledger';
import { readRunJson, readRunText } from './run-files';
import { newestLinkedRun, type LinkedRun } from './run-session';
import { isObject } from '../engine/json-object';

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** A terminal state as the harness saved it (a hand-edited file is not trusted to be one). */
function isTerminal(v: unknown): boolean {
  if (!isObject(v) || typeof v.final_verdict !== 'string' || typeof v.stop_reason !== 'string') return false;
  const r = v.reviewer;
  return (
    isObject(r) &&
    typeof r.verdict === 'string' &&
    typeof r.edited_files === 'boolean' &&
    isStrings(r.findings)
  );
}

function isAttemptOutcome(v: unknown): boolean {
  if (!isObject(v) || !Number.isInteger(v.attempt) || (v.attempt as number) < 1) return false;
  const reviewerOk = v.reviewer === null || (isObject(v.reviewer) && isStrings(v.reviewer.findings));
  return (
    typeof v.withExplorer === 'boolean' &&
    isStrings(v.stepsRun) &&
    isStrings(v.changedFiles) &&
    Array.isArray(v.checks) &&
    v.checks.every((c) => isObject(c) && typeof c.command === 'string' && Number.isInteger(c.returncode)) &&
    isStrings(v.evidencePaths) &&
    reviewerOk &&
    (v.briefId === null || typeof v.briefId === 'string') &&
    isTerminal(v.terminal) &&
    typeof v.receiptPath === 'string'
  );
}

/** The ending the run saved before its receipt, when it is one of ours and whole. */
function savedEnding(run: LinkedRun): RunEnding | null {
  const saved = readRunJson(join(run.runDir, RUN_ENDING_FILE));
  if (!isObject(saved) || saved.run_id !== run.runId || !isObject(saved.ending)) return null;
  const e = saved.ending;
  switch (e.kind) {
    case 'attempt':
      return isAttemptOutcome(e.outcome) ? (e as unknown as RunEnding) : null;
    case 'explorer-failure':
      return isTerminal(e.terminal) && typeof e.receiptPath === 'string' && isStrings(e.evidencePaths)
        ? (e as unknown as RunEnding)
        : null;
    case 'close':
      return isTerminal(e.terminal) && typeof e.receiptPath === 'string' ? (e as unknown as RunEnding) : null;
    default:
      return null;
  }
}

/** Still missing: the run's epoch is open, and (for an attempt) its coder step is not recorded. */
function endingMissing(ledger: Ledger, run: LinkedRun, ending: RunEnding): boolean {
  if (ledger.status !== 'open' || (ledger.epoch ?? 1) !== run.link.epoch) return false;
  switch (ending.kind) {
    case 'attempt':
      return !ledger.completed_actions.includes(stepAction(run.runId, ending.outcome.attempt, 'coder'));
    case 'explorer-failure':
      return epochRecords(ledger).length === 0;
    case 'close':
      return true;
  }
}

/**
 * The critic brief's material, rebuilt from what the reviewer was given (its prompt holds the
 * exact diff and changed files) and the attempt's `checks.json`, as the harness built it.
 */
function briefMaterialOf(run: LinkedRun, outcome: AttemptOutcome): BriefMaterial | null {
  const folder = join(run.runDir, 'attempts', String(outcome.attempt).padStart(2, '0'));
  const prompt = readRunJson(join(folder, 'code-reviewer-prompt.md')) as
    { diff_text?: unknown; changed_files?: unknown } | undefined;
  const verification = readRunText(join(folder, 'checks.json'));
  if (!prompt || typeof prompt.diff_text !== 'string' || !Array.isArray(prompt.changed_files)) return null;
  if (verification === undefined) return null;
  return {
    diff: prompt.diff_text,
    verification,
    changeScope: prompt.changed_files.map((f) => `${String(f)}\n`).join(''),
  };
}

/**
 * Records the newest finished run's ending when the ledger never got it. Returns one line saying
 * what was recorded, or null when there was nothing to do.
 */
export function recoverRunEnding(
  root: string,
  runRootRel: string,
  session: string,
  now: () => Date,
): string | null {
  const run = newestLinkedRun(root, runRootRel, session);
  if (!run || !run.finished) return null;
  const ending = savedEnding(run);
  if (!ending) return null;
  const recorder = new LedgerRecorder(root, session, run.runId, run.runDirRel, now);
  if (ending.kind === 'attempt' && ending.outcome.briefId) {
    const material = briefMaterialOf(run, ending.outcome);
    if (material) recorder.rememberBrief(ending.outcome.briefId, material);
  }
  const recorded = updateLedger(root, session, (read, location) => {
    if (read.kind === 'absent') return { result: false };
    const ledger = requireLedger(read, location, session);
    if (!endingMissing(ledger, run, ending)) return { result: false };
    return { write: recorder.endingLedger(ledger, ending), result: true };
  });
  if (!recorded) return null;
  const reason =
    ending.kind === 'attempt' ? ending.outcome.terminal?.stop_reason : ending.terminal.stop_reason;
  const what =
    ending.kind === 'attempt'
      ? `attempt ${ending.outcome.attempt}`
      : ending.kind === 'explorer-failure'
        ? 'the explorer’s failure'
        : 'the close of its epoch';
  return `${session}: run ${run.runId} ended (${reason ?? 'unknown'}) but the ledger missed it; recorded ${what} from its saved ending`;
}
