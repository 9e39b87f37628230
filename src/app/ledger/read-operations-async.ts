// The read-only operations the extension runs on its UI path (Show Status, Score), with the
// ledger read by the store's read steps driven with promises: the window keeps painting while a
// large ledger loads. Same verdicts and outcomes as statusOp/scoreOp (operations.ts): the steps
// are the synchronous reader's, and the outcomes come from the same helpers.
import type { Evaluation, Ledger } from '../../engine/types';
import type { StatusPayload } from '../../engine/status';
import { sessionLedgerSteps } from '../../store/locate';
import { listSessionsAsync, runReadAsync } from '../../store/read-async';
import type { SessionSummary } from '../../store/discover';
import { checkSessionId, ledgerOfSession } from './access';
import { scoreOutcome, statusOutcome } from './operations';
import { ledgerFile, operationAsync, type Outcome } from '../outcome';

/** loadLedger without blocking: the same steps (sessionLedgerSteps), driven with promises. */
export async function loadLedgerAsync(root: string, session: string): Promise<Ledger> {
  checkSessionId(session);
  return ledgerOfSession(await runReadAsync(sessionLedgerSteps(root, session)), session);
}

/** listOp's outcome, the files read without blocking (listSessionsAsync: same rules as list). */
export function listOpAsync(root: string): Promise<Outcome<{ root: string; sessions: SessionSummary[] }>> {
  return operationAsync(
    () => undefined,
    async () => ({
      exitCode: 0,
      payload: { root, sessions: await listSessionsAsync(root) },
      findings: [],
    }),
  );
}

export function statusOpAsync(root: string, session: string): Promise<Outcome<StatusPayload>> {
  return operationAsync(ledgerFile(root, session), async () =>
    statusOutcome(await loadLedgerAsync(root, session)),
  );
}

export function scoreOpAsync(
  root: string,
  session: string,
  measures: string[],
): Promise<Outcome<Evaluation>> {
  return operationAsync(ledgerFile(root, session), async () =>
    scoreOutcome(await loadLedgerAsync(root, session), measures),
  );
}
