// The first paint of a long ledger's overview, before the full read is done: the file's head and
// tail are read (a few hundred kilobytes, asynchronously, opened as the store opens a ledger: no
// symlink followed, no FIFO waited on, only a regular file within the size cap), the newest
// records charted, and the header's counts and spend taken from the records' stored summary.
// The result says it is partial; the full read replaces it, or replaces it with the reason the
// ledger cannot be read. Small enough to run on the extension host (one parse of at most
// TAIL_BYTES of records). No `vscode` here: the benchmark and the unit tests drive it.
import { open, type FileHandle } from 'node:fs/promises';
import { buildOverview, type OverviewModel, type OverviewPartial } from '../../engine/overview/model';
import { status } from '../../engine/status';
import { ledgerPath, legacyLedgerPath, sessionIdProblem } from '../../store';
import { READ_FLAGS } from '../../store/read-steps';
import { unreadableEntry } from '../../store/ledger-verdict';
import { glanceOf, type Glance } from './glanceText';
import type { PreparedOverview } from './overviewPrepare';

/** Files smaller than this are read whole at once (about 2,000 iterations: well under a second). */
export const GLANCE_MIN_BYTES = 2 * 1024 * 1024;
/** The newest records' bytes read for the glance (about 500 iterations of a typical ledger). */
export const TAIL_BYTES = 512 * 1024;
/** The head is read in steps of this many bytes until the records begin… */
const HEAD_STEP = 64 * 1024;
/** …but never past this (a contract this long is the full read's to show). */
const HEAD_MAX = 1024 * 1024;
const HEAD_MARK = Buffer.from('\n  "iterations": [', 'utf8');

/** The glance's model, or null when there is none to show (then the full read is awaited). */
export async function glanceOverview(
  root: string,
  session: string,
  buckets: number,
): Promise<Extract<PreparedOverview, { kind: 'model' }> | null> {
  if (sessionIdProblem(session) !== null) return null;
  for (const path of [ledgerPath(root, session), legacyLedgerPath(root, session)]) {
    const pieces = await readPieces(path);
    if (pieces === 'absent') continue;
    if (pieces === null) return null;
    const glance = glanceOf(pieces.head, pieces.tail, pieces.size, session);
    return glance === null ? null : prepareGlance(glance, buckets);
  }
  return null;
}

/** The model of a glance: charts of the newest records, the header's counts from the summary. */
export function prepareGlance(
  glance: Glance,
  buckets: number,
): Extract<PreparedOverview, { kind: 'model' }> | null {
  const { ledger, summary } = glance;
  try {
    const payload = summary ? status(ledger, summary).payload : null;
    const model = buildOverview(ledger, payload, buckets);
    const records = ledger.iterations;
    const numbers = new Float64Array(records.length);
    for (let i = 0; i < records.length; i += 1) numbers[i] = records[i]!.n;
    const partial: OverviewPartial = {
      shown: records.length,
      firstShown: records[0]!.n,
      lastShown: records[records.length - 1]!.n,
      total: summary ? summary.count : null,
    };
    const whole: OverviewModel =
      payload === null
        ? { ...model, partial }
        : {
            ...model,
            partial,
            iterations: payload.iterations,
            epochIterations: payload.limits.iterations.spent,
            lastTimestamp: payload.last_timestamp ?? model.lastTimestamp,
            spend: model.spend.map((line) => {
              if (line.key === 'iterations') return { ...line, spent: payload.limits.iterations.spent };
              if (payload.budget) return line; // the engineering budget comes from the status itself
              // Rounded as the complete model rounds it.
              if (line.key === 'usd')
                return { ...line, spent: Math.round(payload.spend.cost_usd * 1e6) / 1e6 };
              if (line.key === 'tokens')
                return { ...line, spent: payload.spend.tokens_in + payload.spend.tokens_out };
              return line;
            }),
          };
    return { kind: 'model', model: whole, numbers };
  } catch {
    return null; // a header the engine cannot read: the full read says why
  }
}

type Pieces = { head: Buffer; tail: Buffer; size: number };

/** The head (up to the records) and the tail of a long ledger file; 'absent'; null for no glance. */
async function readPieces(path: string): Promise<Pieces | 'absent' | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : null;
  }
  try {
    const stat = await handle.stat();
    if (unreadableEntry(stat) !== null || stat.size < GLANCE_MIN_BYTES) return null;
    const head = await readHead(handle, stat.size);
    if (head === null) return null;
    const tailLength = Math.min(TAIL_BYTES, stat.size);
    const tail = Buffer.allocUnsafe(tailLength);
    const got = await readAt(handle, tail, stat.size - tailLength);
    // A file that shrank while read: the full read is coming anyway.
    return got === tailLength ? { head, tail, size: stat.size } : null;
  } catch {
    return null;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The first bytes up to and including where the records begin, or null. */
async function readHead(handle: FileHandle, size: number): Promise<Buffer | null> {
  let head = Buffer.alloc(0);
  while (head.length < Math.min(size, HEAD_MAX)) {
    const step = Buffer.allocUnsafe(Math.min(HEAD_STEP, size - head.length));
    const got = await readAt(handle, step, head.length);
    if (got === 0) return null;
    // Search from a little before the new bytes: the mark may straddle two steps.
    const from = Math.max(0, head.length - HEAD_MARK.length);
    head = Buffer.concat([head, step.subarray(0, got)]);
    const at = head.indexOf(HEAD_MARK, from);
    // A few bytes past the mark: the glance checks what follows it (`[`, newline, indent).
    if (at >= 0 && head.length >= at + HEAD_MARK.length + 8) return head;
  }
  return null;
}

async function readAt(handle: FileHandle, buffer: Buffer, position: number): Promise<number> {
  let length = 0;
  while (length < buffer.length) {
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, position + length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return length;
}
