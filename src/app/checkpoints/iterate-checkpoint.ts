// `iterate --checkpoint`: the workspace's commit is taken first (objects only, outside the lock,
// so a slow tree does not hold other writers) and its ref `refs/loop-ledger/<session>/<epoch>-<n>`
// created for the number the record is expected to get; then under the ledger's lock the engine
// decides the record, which is written with its additive `checkpoint` key (git runs there only
// when another writer took that number first). A refused iteration keeps no ref.
// Without `--checkpoint`, an iterate on a loop whose contract says `checkpoint: true` takes one
// too (see iterateByContractOp).
import { iterateEngineering, type EngineeringIterateInput } from '../../engine/engineering/iterate';
import { isRefusal } from '../../engine/refusal';
import type { IterationRecord, Ledger } from '../../engine/types';
import { readLedgerHead } from '../../store/ledger-file';
import { appendToLedger, checkedLocation, loadLedger } from '../ledger/access';
import type { LockOptions } from '../ledger/lock-options';
import { fromRefusal, ledgerFile, operation, type Outcome } from '../outcome';
import {
  attachAskedCheckpoint,
  nextFromFiles,
  recordIterationCheckpoint,
  releasePendingRef,
  takeAskedCheckpoint,
  takeIterationCheckpoint,
  type TakenCheckpoint,
} from './iteration-checkpoint';

export function iterateWithCheckpointOp(
  root: string,
  session: string,
  input: EngineeringIterateInput,
  lock: LockOptions = {},
): Outcome<IterationRecord> {
  return operation(ledgerFile(root, session), () => {
    const taken = takeAskedCheckpoint(root, session, input.now, () => nextFromFiles(root, session));
    return releasingPendingRef(taken, () =>
      appendToLedger<Outcome<IterationRecord>>(
        root,
        session,
        (ledger, records) => {
          const result = iterateEngineering(ledger, input, records);
          if (isRefusal(result)) return { result: fromRefusal<IterationRecord>(result) };
          const next = attachAskedCheckpoint(result.ledger, result.record, taken, session);
          return { write: next.ledger, result: { exitCode: 0 as const, payload: next.record, findings: [] } };
        },
        lock,
      ),
    );
  });
}

/**
 * Runs the locked write, then deletes the ref made ahead of it unless the record took it (a
 * refusal, a busy lock, a write that failed: the ref would name a checkpoint no record has).
 */
function releasingPendingRef(
  taken: TakenCheckpoint | null,
  write: () => Outcome<IterationRecord>,
): Outcome<IterationRecord> {
  let recorded: IterationRecord | undefined;
  try {
    const outcome = write();
    recorded = outcome.payload;
    return outcome;
  } finally {
    releasePendingRef(taken, recorded);
  }
}

/**
 * `iterate` without `--checkpoint`: a plain iterate, unless the ledger's contract says
 * `checkpoint: true` (and `--no-checkpoint` was not given), when it takes one as `run` does by
 * default. The contract is read once before the lock: when it asks, the checkpoint is taken
 * there, so a slow tree does not hold other writers. Under the lock the contract is read again
 * and decides: a checkpoint taken for a contract that no longer asks is dropped (its objects
 * only; no ref is made), and one the contract now asks for that was not taken is taken there.
 * One that cannot be taken is recorded as `checkpoint_skipped` and the iteration still lands.
 */
export function iterateByContractOp(
  root: string,
  session: string,
  input: EngineeringIterateInput,
  options: { optOut: boolean },
  lock: LockOptions = {},
): Outcome<IterationRecord> {
  const wants = (ledger: Ledger | null) => !options.optOut && ledger?.contract?.checkpoint === true;
  const early =
    !options.optOut && wants(ledgerBeforeLock(root, session))
      ? takeIterationCheckpoint(root, session, input.now)
      : null;
  return releasingPendingRef(early, () =>
    iterateRecording(
      root,
      session,
      input,
      // Taken under the lock only when the contract started asking meanwhile (no ref made ahead then).
      (ledger) =>
        wants(ledger) ? (early ?? takeIterationCheckpoint(root, session, input.now, {}, () => null)) : null,
      lock,
    ),
  );
}

/**
 * The ledger as it is now, read without the lock, when its contract may ask for a checkpoint; null
 * otherwise, or when it cannot be read (the locked read says why). Almost no contract asks, and
 * parsing (or even reading) a long ledger twice would double a plain iterate's cost, so the file's
 * first bytes are searched for a `"checkpoint"` key ahead of the records (a ledger's keys are written sorted, so
 * the contract comes first). A miss is only a hint: under the lock the contract is read again and
 * a checkpoint it asks for is taken there.
 */
function ledgerBeforeLock(root: string, session: string): Ledger | null {
  try {
    const bytes = readLedgerHead(checkedLocation(root, session).readPath, HEAD_BYTES);
    if (bytes === null) return null;
    const records = bytes.indexOf(RECORDS_KEY);
    const head = records === -1 ? bytes : bytes.subarray(0, records);
    // A contract longer than the head read may hold its key further on: then read in full.
    if (records === -1 && bytes.length === HEAD_BYTES) return loadLedger(root, session);
    if (head.indexOf(CHECKPOINT_KEY) === -1) return null;
    return loadLedger(root, session);
  } catch {
    return null;
  }
}

/** Enough for the keys ahead of the records in any ledger but one with a very long contract. */
const HEAD_BYTES = 256 * 1024;
const RECORDS_KEY = Buffer.from('"iterations"', 'utf8');
const CHECKPOINT_KEY = Buffer.from('"checkpoint"', 'utf8');

/** A plain iterate whose record carries a checkpoint already taken (or why none was). */
export function iterateTakenOp(
  root: string,
  session: string,
  input: EngineeringIterateInput,
  taken: TakenCheckpoint,
  lock: LockOptions = {},
): Outcome<IterationRecord> {
  return releasingPendingRef(taken, () => iterateRecording(root, session, input, () => taken, lock));
}

/**
 * The engine's iterate under the ledger's lock; a record it accepts carries what `checkpointFor`
 * gives for the ledger as it was read (null: no checkpoint key at all).
 */
function iterateRecording(
  root: string,
  session: string,
  input: EngineeringIterateInput,
  checkpointFor: (ledger: Ledger) => TakenCheckpoint | null,
  lock: LockOptions,
): Outcome<IterationRecord> {
  return operation(ledgerFile(root, session), () =>
    appendToLedger(
      root,
      session,
      (ledger, records) => {
        const result = iterateEngineering(ledger, input, records);
        if (isRefusal(result)) return { result: fromRefusal<IterationRecord>(result) };
        const taken = checkpointFor(ledger);
        if (taken === null)
          return { write: result.ledger, result: { exitCode: 0, payload: result.record, findings: [] } };
        return withTaken(ledger, result.ledger, taken, session);
      },
      lock,
    ),
  );
}

/** The iteration's new ledger with the checkpoint (or why none) on its last record, to write. */
function withTaken(
  before: Ledger,
  after: Ledger,
  taken: TakenCheckpoint,
  session: string,
): { write: Ledger; result: Outcome<IterationRecord> } {
  const next = recordIterationCheckpoint(before, after, taken, session);
  const record = next.iterations[next.iterations.length - 1] as IterationRecord;
  return { write: next, result: { exitCode: 0, payload: record, findings: [] } };
}
