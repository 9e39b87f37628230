// The Sessions tree's requests to the ledger worker thread (dist/overviewWorker.js, which also
// prepares session overviews): decoding, parsing, checking and the engine's status of every
// ledger run there, not on the extension host, whose thread then only receives plain objects. A
// long ledger's records stay in the worker: the host gets the newest of them and how many each
// epoch holds (receiving, keeping and collecting tens of thousands of records held the host's
// event loop for over 100 ms), and asks for an epoch's records when the person expands it.
import { recordEpoch } from '../../engine/ledger-view';
import { sparklineOf } from '../../engine/overview/dashboard';
import type { IterationRecord } from '../../engine/types';
import type { LedgerFileRef } from '../../store/read-async';
import type { HeldRecords, TimedEntry } from './sessionEntry';
import { readFileNow, readSessionNow, type SizedRead } from './workerRead';

export type SessionsWorkerRequest =
  | { id: number; type: 'file'; root: string; file: LedgerFileRef }
  | { id: number; type: 'session'; root: string; session: string }
  /**
   * Up to `limit` records of one epoch before its position `end` (undefined: its newest), and how
   * many it holds in all.
   */
  | { id: number; type: 'epoch'; root: string; session: string; epoch: number; limit: number; end?: number };

export type SessionsWorkerReply = {
  id: number;
  /** The entry; a long ledger's `iterations` hold only its newest records (see `held`). */
  timed?: TimedEntry | null;
  records?: IterationRecord[];
  /** For an epoch's records: how many the epoch holds in all. */
  total?: number;
  error?: string;
};

/** About this many bytes of ledger text go to the host with an entry: a few milliseconds to copy. */
export const PART_BYTES = 256 * 1024;

/**
 * A long ledger's entry as the host gets it: the newest records that fit PART_BYTES, the counts,
 * and the dashboard's sparkline of every record (the host could only draw the newest).
 */
function heldEntry(timed: TimedEntry | undefined): TimedEntry | null {
  if (!timed || timed.entry.kind !== 'ledger') return timed ?? null;
  const records = timed.entry.ledger.iterations;
  const perPart = recordsPerPart(records);
  if (records.length <= perPart) return timed;
  const byEpoch: Record<number, number> = {};
  for (const record of records) {
    const n = recordEpoch(record);
    byEpoch[n] = (byEpoch[n] ?? 0) + 1;
  }
  const held: HeldRecords = { total: records.length, byEpoch, sparkline: sparklineOf(records) };
  const ledger = { ...timed.entry.ledger, iterations: records.slice(records.length - perPart) };
  return { ...timed, entry: { ...timed.entry, ledger, held } };
}

/** How many records make about PART_BYTES of text (a sample of records sizes them). */
function recordsPerPart(records: readonly IterationRecord[]): number {
  const sample = records.slice(-16);
  const perRecord = sample.length === 0 ? 1 : JSON.stringify(sample).length / sample.length;
  return Math.max(1, Math.floor(PART_BYTES / Math.max(1, perRecord)));
}

/**
 * The answer to one of the tree's reads. `onRead` sees every fresh read whole (the overview
 * keeps a long ledger's read, so opening its overview or expanding an epoch parses nothing again).
 */
export async function answerSessions(
  request: Extract<SessionsWorkerRequest, { type: 'file' | 'session' }>,
  onRead: (root: string, read: SizedRead) => void,
): Promise<SessionsWorkerReply> {
  const read =
    request.type === 'file'
      ? await readFileNow(request.root, request.file)
      : await readSessionNow(request.root, request.session);
  if (read) onRead(request.root, read);
  return { id: request.id, timed: heldEntry(read?.timed) };
}
