// The ready queue: which work order the sequential pass takes next, recomputed from live
// status every pass (nothing persisted). Processable ⟺ not terminal ∧ (ready ∨ needs_rework ∨
// blocked with every dependency done). Terminal is tested before status.
import { compareVersion } from './ids';
import type { ReconcileRow } from './reconcile';

export interface QueueEntry {
  fileName: string;
  row: ReconcileRow;
  /** Every `blocked_by` resolves to exactly one sibling whose status is done. */
  depsDone: boolean;
  /** The first unmet dependency (for "why does it wait"). */
  waitingOn?: string;
}

export function processable(entry: QueueEntry): boolean {
  if (entry.row.terminal) return false;
  const status = entry.row.status;
  return status === 'ready' || status === 'needs_rework' || (status === 'blocked' && entry.depsDone);
}

/** The next work order to process, in ascending version order of its file name. */
export function nextProcessable(entries: QueueEntry[]): QueueEntry | undefined {
  return [...entries].sort((a, b) => compareVersion(a.fileName, b.fileName)).find(processable);
}

export type RunEnd = 'complete' | 'escalation';

/** The run ends when nothing is processable; it is complete only when every WO is done. */
export function runEnd(entries: QueueEntry[]): RunEnd {
  return entries.every((e) => !e.row.terminal && e.row.status === 'done') ? 'complete' : 'escalation';
}
