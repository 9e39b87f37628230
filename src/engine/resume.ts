// `resume`: re-enter a paused ledger; an open one is reported as it is.
import { wrongStateMessage } from './close-fields';
import { EXIT, refuse, type Refusal } from './refusal';
import type { Ledger } from './types';

export interface ResumePayload {
  session: string;
  status: Ledger['status'];
  contract: Ledger['contract'];
  completed_actions: string[];
  next_iteration: number;
  resumed: number;
}

/** Re-enters a paused ledger; an open one is reported unchanged (`changed` false: nothing to write). */
export function resume(
  ledger: Ledger,
): { ledger: Ledger; payload: ResumePayload; changed: boolean } | Refusal {
  let next = ledger;
  if (ledger.status === 'closed') {
    if (ledger.final_outcome !== 'pause') {
      return refuse(EXIT.wrongState, [
        wrongStateMessage(ledger, 'only a paused loop can be resumed; re-open it with open'),
      ]);
    }
    next = { ...ledger, status: 'open', final_outcome: null, resumed: (ledger.resumed ?? 0) + 1 };
  }
  const payload: ResumePayload = {
    session: next.session,
    status: next.status,
    contract: next.contract,
    completed_actions: [...next.completed_actions],
    next_iteration: next.iterations.length + 1,
    resumed: next.resumed ?? 0,
  };
  return { ledger: next, payload, changed: next !== ledger };
}
