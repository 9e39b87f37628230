// Checkpoints when the ledger lives in a PostgreSQL store: the record and its `checkpoint` key go
// to the store (the iteration's row), the commit and its ref stay in this workspace's git
// repository. The sequence is the file store's: the commit taken and its ref created for the
// record's expected number before the write (never inside the store's transaction, unless
// another writer took that number first), then the record written in one transaction.
// `list`, `diff`, `restore` and `prune` read the session's records from the store and the
// commits from this repository; a checkpoint taken on another machine is named as such.
import type { EngineeringIterateInput } from '../../engine/engineering/iterate';
import type { IterationRecord, Ledger } from '../../engine/types';
import type { LedgerStoreOps } from '../ledger/store';
import { Refused, type Outcome } from '../outcome';
import { checkpointsOfLedger } from './checkpoints';
import {
  attachAskedCheckpoint,
  nextRecordOf,
  recordIterationCheckpoint,
  releasePendingRef,
  takeAskedCheckpoint,
  takeIterationCheckpoint,
  type TakenCheckpoint,
  withPendingRefSync,
} from './iteration-checkpoint';
import {
  diffOf,
  listOf,
  pruneOf,
  type CheckpointList,
  type DiffRange,
  type PrunePayload,
} from './operations';
import {
  dryRunOutcome,
  pauseInput,
  prepareRestore,
  restoredOutcome,
  restoreRecorded,
  type RestoreInput,
  type RestorePayload,
} from './restore';

/** Runs `body` over the store's ledger of `session`, or returns the store's refusal. */
async function withLedger<P>(
  store: LedgerStoreOps,
  session: string,
  records: 'all' | 'summary',
  body: (ledger: Ledger, count: number) => Outcome<P> | Promise<Outcome<P>>,
): Promise<Outcome<P>> {
  const read = await store.load(session, records);
  if (read.exitCode !== 0 || read.payload === undefined)
    return { exitCode: read.exitCode, findings: read.findings };
  const { ledger, count } = read.payload;
  try {
    return await body(ledger, count);
  } catch (error) {
    if (error instanceof Refused) return { exitCode: error.exitCode, findings: error.findings };
    throw error;
  }
}

/** `iterate --checkpoint` on a store: refused (exit 3) when the checkpoint cannot be taken. */
export function iterateWithCheckpointOnStore(
  store: LedgerStoreOps,
  root: string,
  session: string,
  input: EngineeringIterateInput,
): Promise<Outcome<IterationRecord>> {
  return withLedger(store, session, 'summary', async (ledger, count) => {
    const taken = takeAskedCheckpoint(root, session, input.now, () => nextRecordOf(ledger, count));
    return releasing(taken, () =>
      store.iterate(session, input, (before, after) => {
        const record = after.iterations[after.iterations.length - 1];
        if (record === undefined) return after;
        return attachAskedCheckpoint(after, record, taken, session).ledger;
      }),
    );
  });
}

/**
 * `iterate` on a store whose session's contract says `checkpoint: true` (unless `optOut`): the
 * checkpoint taken before the write when the contract asks, decided again in the write's
 * transaction; one that cannot be taken is recorded as `checkpoint_skipped`.
 */
export function iterateByContractOnStore(
  store: LedgerStoreOps,
  root: string,
  session: string,
  input: EngineeringIterateInput,
  optOut: boolean,
): Promise<Outcome<IterationRecord>> {
  if (optOut) return store.iterate(session, input);
  const wants = (ledger: Ledger) => ledger.contract?.checkpoint === true;
  return withLedger(store, session, 'summary', async (ledger, count) => {
    const early = wants(ledger)
      ? takeIterationCheckpoint(root, session, input.now, {}, () => nextRecordOf(ledger, count))
      : null;
    return releasing(early, () =>
      store.iterate(session, input, (before, after) => {
        if (!wants(before)) return after;
        const taken = early ?? takeIterationCheckpoint(root, session, input.now, {}, () => null);
        return recordIterationCheckpoint(before, after, taken, session);
      }),
    );
  });
}

async function releasing(
  taken: TakenCheckpoint | null,
  write: () => Promise<Outcome<IterationRecord>>,
): Promise<Outcome<IterationRecord>> {
  let recorded: IterationRecord | undefined;
  try {
    const outcome = await write();
    recorded = outcome.payload;
    return outcome;
  } finally {
    releasePendingRef(taken, recorded);
  }
}

export function checkpointListOnStore(
  store: LedgerStoreOps,
  root: string,
  session: string,
): Promise<Outcome<CheckpointList>> {
  return withLedger(store, session, 'all', (ledger) =>
    listOf(root, session, checkpointsOfLedger(ledger, session)),
  );
}

export function checkpointDiffOnStore(
  store: LedgerStoreOps,
  root: string,
  session: string,
  range: DiffRange,
): Promise<Outcome<{ diff: string }>> {
  return withLedger(store, session, 'all', (ledger) =>
    diffOf(root, session, checkpointsOfLedger(ledger, session), range),
  );
}

export function checkpointPruneOnStore(
  store: LedgerStoreOps,
  root: string,
  session: string,
  keep: number,
): Promise<Outcome<PrunePayload>> {
  return withLedger(store, session, 'all', (ledger, count) =>
    pruneOf(root, session, checkpointsOfLedger(ledger, session), count, keep),
  );
}

/**
 * `checkpoint restore` on a store: the same refusals, safety checkpoint and plan as on files;
 * the safety checkpoint's ref made ahead for the `pause` record's expected number, and in the
 * store's write transaction the files written and the record saved. A transaction sent again
 * after a lost connection writes the same files again, which changes nothing.
 */
export function checkpointRestoreOnStore(
  store: LedgerStoreOps,
  root: string,
  session: string,
  input: RestoreInput,
): Promise<Outcome<RestorePayload>> {
  return withLedger(store, session, 'all', async (ledger, count) => {
    const prepared = prepareRestore(root, session, checkpointsOfLedger(ledger, session), input);
    if (input.dryRun) return dryRunOutcome(prepared);
    const pending = withPendingRefSync(
      { ws: prepared.ws, snap: prepared.safety },
      session,
      nextRecordOf(ledger, count),
    );
    const outcome = await releasing(pending, () =>
      store.iterate(session, pauseInput(prepared, input), (_before, after) => {
        const record = after.iterations[after.iterations.length - 1];
        if (record === undefined) return after;
        return restoreRecorded(prepared, session, after, record, pending).ledger;
      }),
    );
    if (outcome.exitCode !== 0 || outcome.payload === undefined)
      return { exitCode: outcome.exitCode, findings: outcome.findings };
    return restoredOutcome(prepared, outcome.payload);
  });
}
