// The loop-engineering original's loop statuses on records (`loop_status`; the ledger's own `status` stays
// open/closed), derived from what the iteration recorded, by the mapping of
// loop-engineering-reference.md: BLOCKED_PERMISSION → pause, VERIFY_FAILED → continue + revert
// (or revise), NO_PROGRESS → escalate, BUDGET_STOP → stop, verified success → complete, NO_OP.
import type { IterationRecord } from '../types';
import type { TerminationReason } from './termination';

export const LOOP_STATUSES = [
  'NEEDS_INPUT',
  'BLOCKED_PERMISSION',
  'VERIFY_FAILED',
  'NO_PROGRESS',
  'BUDGET_STOP',
  'NO_OP',
  'success',
] as const;
export type LoopStatus = (typeof LOOP_STATUSES)[number];

/** null: the loop simply continues (or a checkpoint paused it), which no status word names. */
export function loopStatusOf(
  record: Pick<IterationRecord, 'outcome' | 'stall' | 'decision'>,
  facts: { noOp: boolean; termination: TerminationReason | null },
): LoopStatus | null {
  const { outcome, stall, decision } = record;
  if (outcome === 'stop') return 'BUDGET_STOP'; // an iteration or budget cap; never success, even when quiet
  if (facts.noOp) return 'NO_OP';
  if (outcome === 'complete') return 'success';
  if (outcome === 'escalate') return 'NO_PROGRESS';
  if (outcome === 'pause') {
    return facts.termination === 'truncation' || facts.termination === 'checkpoint'
      ? null
      : 'BLOCKED_PERMISSION';
  }
  if (outcome === 'revise') return stall === 'circular-state' ? 'NO_PROGRESS' : 'VERIFY_FAILED';
  if (decision === 'revert') return 'VERIFY_FAILED';
  return null;
}
