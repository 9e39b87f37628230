// The read-only operations the extension runs on its UI path (Show Status, Score), with the
// ledger read through the store's asynchronous reader: the window keeps painting while a large
// ledger loads. Same verdicts and outcomes as statusOp/scoreOp (operations.ts): the reader shares
// the synchronous one's flags and decoder, and the rules run through the same helpers.
import { EXIT } from '../engine/refusal';
import type { Evaluation, Ledger } from '../engine/types';
import type { StatusPayload } from '../engine/status';
import { sessionIdProblem } from '../store';
import { ledgerPath } from '../store/paths';
import { listSessionsAsync, readSessionLedgerAsync } from '../store/read-async';
import type { SessionSummary } from '../store/discover';
import { guardDepth, requireLedger } from './ledger-access';
import { scoreOutcome, statusOutcome } from './operations';
import { ledgerFile, operationAsync, Refused, type Outcome } from './outcome';

/** A session's ledger read without blocking, or a Refused with loadLedger's own findings. */
export async function loadLedgerAsync(root: string, session: string): Promise<Ledger> {
  const problem = sessionIdProblem(session);
  if (problem) throw new Refused(EXIT.usage, [problem]);
  const writePath = ledgerPath(root, session);
  const found = await readSessionLedgerAsync(root, session);
  if (found === null)
    return requireLedger({ kind: 'absent' }, { readPath: writePath, writePath, legacy: false }, session);
  const location = { readPath: found.ref.path, writePath, legacy: found.ref.legacy };
  // The read parsed already; a ledger nested too deeply to use is refused as loadLedger refuses it.
  return guardDepth(location, () => requireLedger(found.read, location, session));
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
