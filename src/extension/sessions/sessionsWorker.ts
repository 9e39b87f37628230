// The Sessions tree's requests to the ledger worker thread (dist/overviewWorker.js, which also
// prepares session overviews): decoding, parsing, checking and the engine's status of every
// ledger run there, not on the extension host, whose thread then only receives plain objects. A long ledger comes back in
// parts of a few hundred kilobytes (the host asks for the next part when it has taken one), so
// the host never spends more than a few milliseconds in one message however long the ledger is.
import type { LedgerFileRef } from '../../store/read-async';
import type { IterationRecord } from '../../engine/types';
import type { TimedEntry } from './sessionEntry';
import { readFileNow, readSessionNow, type SizedRead } from './workerRead';

export type SessionsWorkerRequest =
  | { id: number; type: 'file'; root: string; file: LedgerFileRef }
  | { id: number; type: 'session'; root: string; session: string }
  | { id: number; type: 'records'; part: number };

export type SessionsWorkerReply = {
  id: number;
  /** The entry; a long ledger's `iterations` hold only its first records. */
  timed?: TimedEntry | null;
  /** When more records follow: how many in all, and the id to ask the next part by. */
  rest?: { part: number; total: number };
  records?: IterationRecord[];
  error?: string;
};

/** About this many bytes of ledger text per message: a few milliseconds to copy on the host. */
export const PART_BYTES = 256 * 1024;

/** Records still to send, by part id; dropped once sent (or when the host stops asking). */
const parts = new Map<number, { records: IterationRecord[]; next: number; perPart: number }>();
let nextPart = 0;
/** Parts the host never asked for (it was disposed, or re-read meanwhile) do not pile up. */
const KEPT_PARTS = 64;

function split(id: number, timed: TimedEntry | undefined, textLength: number): SessionsWorkerReply {
  if (!timed || timed.entry.kind !== 'ledger') return { id, timed: timed ?? null };
  const records = timed.entry.ledger.iterations;
  const perRecord = textLength / Math.max(1, records.length);
  const perPart = Math.max(1, Math.floor(PART_BYTES / Math.max(1, perRecord)));
  if (records.length <= perPart) return { id, timed };
  const part = ++nextPart;
  parts.set(part, { records, next: perPart, perPart });
  while (parts.size > KEPT_PARTS) parts.delete(parts.keys().next().value as number);
  const ledger = { ...timed.entry.ledger, iterations: records.slice(0, perPart) };
  return {
    id,
    timed: { ...timed, entry: { ...timed.entry, ledger } },
    rest: { part, total: records.length },
  };
}

function nextRecords(id: number, part: number): SessionsWorkerReply {
  const kept = parts.get(part);
  if (!kept) return { id, error: 'that part is no longer kept' };
  const records = kept.records.slice(kept.next, kept.next + kept.perPart);
  kept.next += records.length;
  if (kept.next >= kept.records.length) parts.delete(part);
  return { id, records };
}

/** The ledger text's length, to size the parts (the entry keeps no text: an estimate from JSON). */
function textLengthOf(timed: TimedEntry | undefined): number {
  if (!timed || timed.entry.kind !== 'ledger') return 0;
  const records = timed.entry.ledger.iterations;
  // A sample of records is enough to size the parts.
  const sample = records.slice(0, 16);
  const sampled = sample.length === 0 ? 0 : JSON.stringify(sample).length / sample.length;
  return sampled * records.length;
}

/**
 * The answer to one of the tree's requests. `onRead` sees every fresh read whole (the overview
 * keeps a long ledger's read, so opening its overview parses nothing again).
 */
export async function answerSessions(
  request: SessionsWorkerRequest,
  onRead: (root: string, read: SizedRead) => void,
): Promise<SessionsWorkerReply> {
  if (request.type === 'records') return nextRecords(request.id, request.part);
  const read =
    request.type === 'file'
      ? await readFileNow(request.root, request.file)
      : await readSessionNow(request.root, request.session);
  if (read) onRead(request.root, read);
  return split(request.id, read?.timed, textLengthOf(read?.timed));
}
