// The overview worker's quick read of a long ledger: when the file is sealed (this store wrote
// it with a digest of its records), each record is streamed from the file into the model's fold
// (engine/overview/model.ts, OverviewFold) with only the fields the charts draw taken from it
// (store/sealed-fields.ts) — on 100,000 iterations a fraction of parsing them all, and no record
// is kept. What is kept is the fold (a redraw at another width finishes it again), each record's
// number and where it is in the file: a click on an iteration reads that record again
// (recordAgain). Anything the quick read cannot vouch for is null, and the worker reads the file
// in full, as the tree does, and shows its reason when the ledger is malformed.
import { isPlain } from '../../engine/plain-pieces';
import { OverviewFold } from '../../engine/overview/model';
import { status, type StatusPayload } from '../../engine/status';
import type { IterationRecord } from '../../engine/types';
import { ledgerPath, sessionIdProblem } from '../../store';
import { runReadSync } from '../../store/read-sync';
import { recordAtSteps, sealedFieldsSteps, type SealedFields } from '../../store/sealed-fields';
import type { PreparedOverview } from './overviewPrepare';

/** A quick read: the fold to finish per chart width, and what a click needs to read a record. */
export interface SealedOverview {
  session: string;
  fold: OverviewFold;
  status: StatusPayload;
  numbers: Float64Array;
  lines: Pick<SealedFields, 'offsets' | 'size' | 'mtimeMs'> & { path: string };
}

/** The session's ledger read for the charts, or null (then read it in full). */
export function sealedOverviewRead(root: string, session: string): SealedOverview | null {
  if (isPlain('seal') || sessionIdProblem(session) !== null) return null;
  // Only the .loop file: when it is missing the full read looks in the original engine's folder.
  const path = ledgerPath(root, session);
  let fold: OverviewFold | undefined;
  const read = runReadSync(
    sealedFieldsSteps(path, session, (header, count) => {
      const made = new OverviewFold(header, count);
      fold = made;
      const kind = made.kind;
      return {
        wants: { repeat: kind === 'repeat', actions: kind === 'work-order' },
        add: (record) => made.add(record as IterationRecord),
      };
    }),
  );
  if (read === null || fold === undefined) return null;
  let payload: StatusPayload;
  try {
    // The records' summary was checked against them (count, records per epoch): what the model
    // takes of the status (the engineering budget) is what the full read's status gives.
    payload = status(read.header, read.summary).payload;
  } catch {
    return null;
  }
  return {
    session,
    fold,
    status: payload,
    numbers: read.numbers,
    lines: { path, offsets: read.offsets, size: read.size, mtimeMs: read.mtimeMs },
  };
}

/** The model of a quick read for about `buckets` pixels, as prepareOverview makes it. */
export function prepareSealed(read: SealedOverview, buckets: number): PreparedOverview {
  try {
    return { kind: 'model', model: read.fold.finish(read.status, buckets), numbers: read.numbers };
  } catch (error) {
    const reason = `unreadable ledger: ${error instanceof Error ? error.message : String(error)}`;
    return { kind: 'problem', session: read.session, reason };
  }
}

/**
 * Record `n` of a quick read, parsed whole from its file; null when there is no such record;
 * 'changed' when the file is not the one read any more.
 */
export function recordAgain(read: SealedOverview, n: number): IterationRecord | null | 'changed' {
  const numbers = read.numbers;
  // Records are numbered from 1 in file order: look there first (as recordOf does).
  let index = numbers[n - 1] === n ? n - 1 : -1;
  if (index < 0) index = numbers.indexOf(n);
  if (index < 0) return null;
  return runReadSync(recordAtSteps(read.lines.path, read.lines, index)) ?? 'changed';
}
