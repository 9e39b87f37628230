// The worker thread that reads a large ledger for the session overview (bundled to
// dist/overviewWorker.js): reading and checking a 100,000-iteration ledger takes seconds of CPU,
// which on the extension host would freeze every extension in the window. The host receives only
// the model (downsampled, a few hundred kilobytes) and the records' numbers. The last ledgers read
// are kept while their file is unchanged, so a redraw or a click on an iteration reads nothing.
// A long sealed ledger the tree has not read is read for its charts only (sealedOverviewRead):
// the model's fold is kept instead of its records, and a click reads that one record again.
import { parentPort } from 'node:worker_threads';
import type { SessionEntry } from '../sessions/sessionEntry';
import { epochRecords } from '../sessions/epochs';
import { answerSessions, type SessionsWorkerRequest } from '../sessions/sessionsWorker';
import { readSessionNow, sizeAndTime, type SizedRead } from '../sessions/workerRead';
import { INLINE_RECORDS } from './overviewLimits';
import { iterationOf, iterationWords, prepareOverview, type PreparedOverview } from './overviewPrepare';
import { prepareSealed, recordAgain, sealedOverviewRead, type SealedOverview } from './overviewSealed';

export type OverviewWorkerRequest =
  | { id: number; type: 'overview'; root: string; session: string; buckets: number }
  | { id: number; type: 'iteration'; root: string; session: string; n: number };

/** How many ledgers stay parsed in the worker (one per open overview, usually one or two). */
const KEPT = 2;
interface Kept {
  entry: SessionEntry | undefined;
  mtimeMs: number;
  size: number;
  /** The last model prepared from this read, and for how many buckets: a redraw reuses it. */
  prepared?: { buckets: number; value: PreparedOverview };
  /** A quick read for the charts (then `entry` is undefined): its fold and where each record is. */
  sealed?: SealedOverview;
}
const kept = new Map<string, Kept>();

/** Keeps a fresh read (the newest use last), dropping the oldest beyond KEPT. */
function keep(key: string, value: Kept): void {
  kept.delete(key);
  kept.set(key, value);
  while (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
}

/**
 * The tree read a ledger here: a long one is kept, so opening or redrawing its overview reuses
 * that parse (a write re-reads it once for both the tree and the overview, not twice).
 */
function keepTreeRead(root: string, read: SizedRead): void {
  const { entry, mtimeMs } = read.timed;
  const key = `${root}\0${entry.session}`;
  if (entry.kind === 'ledger' && entry.ledger.iterations.length > INLINE_RECORDS && mtimeMs !== 0)
    keep(key, { entry, mtimeMs, size: read.size });
  else kept.delete(key); // an older kept read of it is not the file any more
}

/**
 * The session's kept read while its file is unchanged, else read again: for the charts only
 * (`charts`) when the ledger is long and sealed, else in full.
 */
async function keptOf(root: string, session: string, charts = false): Promise<Kept> {
  const key = `${root}\0${session}`;
  const known = kept.get(key);
  const knownPath = known?.entry?.path ?? known?.sealed?.lines.path;
  if (known && knownPath !== undefined && known.mtimeMs !== 0) {
    const now = await sizeAndTime(knownPath);
    if (now && now.mtimeMs === known.mtimeMs && now.size === known.size) {
      kept.delete(key); // re-inserted below: the newest use is last
      kept.set(key, known);
      return known;
    }
  }
  if (charts) {
    const sealed = sealedOverviewRead(root, session);
    if (sealed !== null) {
      const fresh: Kept = {
        entry: undefined,
        mtimeMs: sealed.lines.mtimeMs,
        size: sealed.lines.size,
        sealed,
      };
      keep(key, fresh);
      return fresh;
    }
  }
  return readInFull(root, session);
}

/** The session's ledger read in full (the tree's read), kept for the next request. */
async function readInFull(root: string, session: string): Promise<Kept> {
  const read = await readSessionNow(root, session);
  const fresh: Kept = { entry: read?.timed.entry, mtimeMs: read?.timed.mtimeMs ?? 0, size: read?.size ?? -1 };
  keep(`${root}\0${session}`, fresh);
  return fresh;
}

async function answer(request: OverviewWorkerRequest): Promise<void> {
  const read = await keptOf(request.root, request.session, request.type === 'overview');
  if (request.type === 'overview') {
    if (read.prepared?.buckets !== request.buckets)
      read.prepared = {
        buckets: request.buckets,
        value: read.sealed
          ? prepareSealed(read.sealed, request.buckets)
          : prepareOverview(read.entry, request.buckets),
      };
    const prepared = read.prepared.value;
    // The numbers travel as a copy: the kept model keeps its own for the next redraw.
    const numbers = prepared.kind === 'model' ? prepared.numbers.slice() : undefined;
    const reply = numbers && prepared.kind === 'model' ? { ...prepared, numbers } : prepared;
    parentPort?.postMessage(
      { id: request.id, prepared: reply },
      numbers ? [numbers.buffer as ArrayBuffer] : [],
    );
  } else {
    parentPort?.postMessage({ id: request.id, iteration: (await iterationIn(read, request)) ?? null });
  }
}

/** An epoch's records for the tree (a long ledger's records stay here): from the kept read. */
async function answerEpoch(request: Extract<SessionsWorkerRequest, { type: 'epoch' }>): Promise<void> {
  let read = await keptOf(request.root, request.session);
  // A quick read for the charts keeps no records: the tree's expand needs the full read.
  if (read.entry === undefined && read.sealed) read = await readInFull(request.root, request.session);
  const { records, total } = epochRecords(read.entry, request.epoch, request.limit, request.end);
  parentPort?.postMessage({ id: request.id, records, total });
}

/** Record `n` in words: from the kept records, or read again when only their fields are kept. */
async function iterationIn(
  read: Kept,
  request: { root: string; session: string; n: number },
): Promise<ReturnType<typeof iterationOf>> {
  if (!read.sealed) return iterationOf(read.entry, request.n);
  const again = recordAgain(read.sealed, request.n);
  if (again !== 'changed') return again === null ? undefined : iterationWords(again);
  // The file changed since: read it in full (the tree's read), and answer from that.
  const fresh = await keptOf(request.root, request.session);
  return iterationOf(fresh.entry, request.n);
}

parentPort?.on('message', (request: OverviewWorkerRequest | SessionsWorkerRequest) => {
  if (request.type === 'epoch') {
    answerEpoch(request).catch((error: unknown) => {
      parentPort?.postMessage({
        id: request.id,
        error: error instanceof Error ? error.message : String(error),
      });
    });
    return;
  }
  if (request.type !== 'overview' && request.type !== 'iteration') {
    void answerSessions(request, keepTreeRead).then(
      (reply) => parentPort?.postMessage(reply),
      (error: unknown) =>
        parentPort?.postMessage({
          id: request.id,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
    return;
  }
  answer(request).catch((error: unknown) => {
    parentPort?.postMessage({
      id: request.id,
      error: error instanceof Error ? error.message : String(error),
    });
  });
});
