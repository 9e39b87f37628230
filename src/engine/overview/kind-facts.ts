// What the overview adds from beside the ledger for the kinds that keep facts elsewhere: a run's
// phases and their durations and its receipt's verdict (the run folder), a work order's attempt
// cap and the verdicts of its current attempt (the work-order folder and the window's cap). The
// host reads those files; this code only judges what it was handed, so a missing or malformed
// file leaves the ledger's own rows in place with a note, never an empty page or a throw.
import type { KindNote, OverviewModel, RunReceiptLine } from './model';

/**
 * The harness writes no clock per phase, but each phase writes a file as it starts and another
 * as it ends (the prompt before the agent runs, its stderr after it exits; the changed-file list
 * before the checks, checks.json after them). A phase's duration is the span between those two
 * files' modification times. Paths are relative to the attempt folder (the explorer's to the run
 * folder).
 */
export const PHASE_FILES: readonly { phase: string; start: string; end: string; explorer?: true }[] = [
  {
    phase: 'explorer',
    start: 'explorer/explorer-prompt.md',
    end: 'explorer/explorer-stderr.txt',
    explorer: true,
  },
  { phase: 'coder', start: 'coder-prompt.md', end: 'coder-stderr.txt' },
  { phase: 'checks', start: 'changed-files.txt', end: 'checks.json' },
  { phase: 'code-reviewer', start: 'code-reviewer-prompt.md', end: 'code-reviewer-stderr.txt' },
];

/** What the host found of one run folder. */
export type RunFolderFacts =
  | { kind: 'missing'; runId: string }
  | {
      kind: 'read';
      runId: string;
      /** The parsed final-receipt.json; undefined when there is none (yet), or it is not JSON. */
      receipt: unknown;
      /** Whether a final-receipt.json is there at all (present but unparsable reads as malformed). */
      receiptPresent: boolean;
      /** Modification times (ms) of the run folder's files named by PHASE_FILES' explorer entry. */
      runTimes: Readonly<Record<string, number>>;
      /** Per attempt number: the modification times (ms) of that attempt folder's PHASE_FILES. */
      attemptTimes: Readonly<Record<number, Readonly<Record<string, number>>>>;
    };

export interface WorkOrderFacts {
  /**
   * The cap the window dispatches under (the Work Orders view's setting): shown only when the
   * run-state file does not record the cap its last dispatch used (files from older versions).
   */
  cap: number | null;
  /** The parsed run-state sidecar (`wo-NN.run.json`); undefined when there is none. */
  runState: unknown;
  /** Whether the work-order file was found at all. */
  found: boolean;
  /** The current attempt's review verdict and whether its critique blocks, as the sidecars say. */
  reviewVerdict: unknown;
  critiqueBlocking: unknown;
}

export interface KindFacts {
  runs?: readonly RunFolderFacts[];
  workOrder?: WorkOrderFacts;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200;

/** `ms` for a person: "340 ms", "1.2 s", "3 min 4 s". */
function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(Math.round(ms / 100) / 10).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** Each phase an attempt's files show, with its duration (null when a file or its time is off). */
function phasesOf(
  attempt: number,
  runTimes: Readonly<Record<string, number>>,
  times: Readonly<Record<string, number>> | undefined,
): { phase: string; ms: number | null }[] {
  const phases: { phase: string; ms: number | null }[] = [];
  for (const p of PHASE_FILES) {
    if (p.explorer && attempt !== 1) continue;
    const source = p.explorer ? runTimes : (times ?? {});
    const start = source[p.start];
    const end = source[p.end];
    if (!isNumber(start) && !isNumber(end)) continue; // the phase never ran
    // A copied or checked-out folder can carry times out of order: no duration rather than a wrong one.
    phases.push({
      phase: p.phase,
      ms: isNumber(start) && isNumber(end) && end >= start ? end - start : null,
    });
  }
  return phases;
}

function receiptLine(runId: string, receipt: unknown): RunReceiptLine | null {
  if (typeof receipt !== 'object' || receipt === null || Array.isArray(receipt)) return null;
  const r = receipt as Record<string, unknown>;
  if (!isText(r.final_verdict) || !isText(r.stop_reason)) return null;
  return {
    runId,
    verdict: r.final_verdict,
    stopReason: r.stop_reason,
    attemptsUsed: isNumber(r.attempts_used) ? r.attempts_used : null,
    maxAttempts: isNumber(r.max_attempts) ? r.max_attempts : null,
  };
}

function withRunFacts(model: OverviewModel, runs: readonly RunFolderFacts[]): OverviewModel {
  const byId = new Map(runs.map((r) => [r.runId, r]));
  const notes: KindNote[] = [];
  const receipts: RunReceiptLine[] = [];
  for (const run of runs) {
    if (run.kind === 'missing') {
      notes.push({ note: 'run-folder-missing', runId: run.runId });
      continue;
    }
    const line = receiptLine(run.runId, run.receipt);
    if (line) receipts.push(line);
    else if (run.receiptPresent) notes.push({ note: 'receipt-malformed', runId: run.runId });
    else notes.push({ note: 'receipt-missing', runId: run.runId });
  }
  const rows = model.kindRows.map((row, i) => {
    const at = model.runAttempts[i];
    const run = at ? byId.get(at.runId) : undefined;
    if (!at || run?.kind !== 'read') return row;
    const phases = phasesOf(at.attempt, run.runTimes, run.attemptTimes[at.attempt]);
    if (phases.length === 0) return row;
    const text = phases.map((p) => `${p.phase} ${p.ms === null ? '?' : durationText(p.ms)}`).join(' · ');
    return { ...row, cells: [row.cells[0]!, text, ...row.cells.slice(2)], phases };
  });
  return { ...model, kindRows: rows, receipts, kindNotes: notes };
}

const capOf = (v: unknown): number | null => (isNumber(v) && v >= 0 ? v : null);

function withWorkOrderFacts(model: OverviewModel, wo: WorkOrderFacts): OverviewModel {
  if (!wo.found) return { ...model, kindNotes: [{ note: 'work-order-missing', runId: null }] };
  const state =
    typeof wo.runState === 'object' && wo.runState !== null && !Array.isArray(wo.runState)
      ? (wo.runState as Record<string, unknown>)
      : null;
  const notes: KindNote[] = [];
  if (wo.runState !== undefined && state === null) notes.push({ note: 'run-state-malformed', runId: null });
  // The sidecar counts every dispatch (the retry cap's own count); the ledger's epochs are the fallback.
  const counted = state && isNumber(state.attempts) && state.attempts >= 0 ? state.attempts : null;
  const verdicts: string[] = [];
  if (isText(wo.reviewVerdict)) verdicts.push(`review ${wo.reviewVerdict}`);
  if (typeof wo.critiqueBlocking === 'boolean')
    verdicts.push(wo.critiqueBlocking ? 'critique blocking' : 'critique not blocking');
  if (state?.halted === true)
    verdicts.push(`halted${isText(state.halt_reason) ? ` (${state.halt_reason})` : ''}`);
  const rows = model.kindRows.map((row, i, all) =>
    i === all.length - 1 && verdicts.length > 0
      ? { ...row, cells: [...row.cells.slice(0, 2), `${row.cells[2] ?? ''} · ${verdicts.join(', ')}`] }
      : row,
  );
  return {
    ...model,
    attempts: counted ?? model.attempts,
    attemptCap: capOf(state?.cap) ?? capOf(wo.cap),
    kindRows: rows,
    kindNotes: notes,
  };
}

/** `model` with what the host read beside the ledger; the ledger's rows stay when a file is off. */
export function withKindFacts(model: OverviewModel, facts: KindFacts): OverviewModel {
  if (model.kind === 'run' && facts.runs) return withRunFacts(model, facts.runs);
  if (model.kind === 'work-order' && facts.workOrder) return withWorkOrderFacts(model, facts.workOrder);
  return model;
}
