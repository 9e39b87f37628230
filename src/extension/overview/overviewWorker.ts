// The worker thread that reads a large ledger for the session overview (bundled to
// dist/overviewWorker.js): reading and checking a 100,000-iteration ledger takes seconds of CPU,
// which on the extension host would freeze every extension in the window. The host receives only
// the model (downsampled, a few hundred kilobytes) and the records' numbers. The last ledgers read
// are kept while their file is unchanged, so a redraw or a click on an iteration reads nothing.
import { stat } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { readSessionAsync, type SessionEntry } from '../sessions/sessionEntry';
import { iterationOf, prepareOverview, type PreparedOverview } from './overviewPrepare';

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
}
const kept = new Map<string, Kept>();

async function sizeAndTime(path: string): Promise<{ mtimeMs: number; size: number } | null> {
  try {
    const s = await stat(path);
    return { mtimeMs: s.mtimeMs, size: s.size };
  } catch {
    return null;
  }
}

/** The session's kept read while its file is unchanged, else read again. */
async function keptOf(root: string, session: string): Promise<Kept> {
  const key = `${root}\0${session}`;
  const known = kept.get(key);
  if (known?.entry && known.mtimeMs !== 0) {
    const now = await sizeAndTime(known.entry.path);
    if (now && now.mtimeMs === known.mtimeMs && now.size === known.size) {
      kept.delete(key); // re-inserted below: the newest use is last
      kept.set(key, known);
      return known;
    }
  }
  kept.delete(key);
  const timed = await readSessionAsync(root, session);
  const size = timed ? ((await sizeAndTime(timed.entry.path))?.size ?? -1) : -1;
  const fresh: Kept = { entry: timed?.entry, mtimeMs: timed?.mtimeMs ?? 0, size };
  kept.set(key, fresh);
  while (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
  return fresh;
}

async function answer(request: OverviewWorkerRequest): Promise<void> {
  const read = await keptOf(request.root, request.session);
  if (request.type === 'overview') {
    if (read.prepared?.buckets !== request.buckets)
      read.prepared = { buckets: request.buckets, value: prepareOverview(read.entry, request.buckets) };
    const prepared = read.prepared.value;
    // The numbers travel as a copy: the kept model keeps its own for the next redraw.
    const numbers = prepared.kind === 'model' ? prepared.numbers.slice() : undefined;
    const reply = numbers && prepared.kind === 'model' ? { ...prepared, numbers } : prepared;
    parentPort?.postMessage(
      { id: request.id, prepared: reply },
      numbers ? [numbers.buffer as ArrayBuffer] : [],
    );
  } else {
    parentPort?.postMessage({ id: request.id, iteration: iterationOf(read.entry, request.n) ?? null });
  }
}

parentPort?.on('message', (request: OverviewWorkerRequest) => {
  answer(request).catch((error: unknown) => {
    parentPort?.postMessage({
      id: request.id,
      error: error instanceof Error ? error.message : String(error),
    });
  });
});
