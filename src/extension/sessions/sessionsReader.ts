// Where the Sessions tree's reads happen: in the ledger worker thread (overviewWorker.ts, its
// tree requests in sessionsWorker.ts) when one is
// given, so the extension host never parses a ledger; inline (the asynchronous reader) when there
// is no worker or it fails, so the tree always fills. Either way the entries are the same: the
// worker runs the very functions the inline path runs. No `vscode` here: the benchmark drives it.
import type { IterationRecord } from '../../engine/types';
import { listLedgerFilesAsync, type LedgerFileRef } from '../../store/read-async';
import { sessionIdProblem } from '../../store';
import { WorkerChannel } from '../workerChannel';
import { readListedAsync, readSessionAsync, type TimedEntry } from './sessionEntry';
import { epochRecords } from './epochs';
import type { SessionsWorkerReply, SessionsWorkerRequest } from './sessionsWorker';

type Request = SessionsWorkerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/** Ledgers read at once: enough to keep the worker busy, few enough that parts never pile up. */
const IN_FLIGHT = 8;

export class SessionsReader {
  /** The ledger worker's channel (the overview shares it, and so the worker's kept reads). */
  readonly channel: WorkerChannel<Request, SessionsWorkerReply> | undefined;
  private disposed = false;
  /** How many ledgers the worker read (tests and the benchmark read it). */
  readInWorker = 0;
  /** How many long ledgers came with only their newest records (tests read it). */
  heldInWorker = 0;

  /** `workerPath`: the bundled overviewWorker.js (the ledger worker); undefined reads everything inline. */
  constructor(workerPath: string | undefined) {
    this.channel = workerPath === undefined ? undefined : new WorkerChannel(workerPath, 'ledger worker');
  }

  /** Every session under `root`, by id, in the order `list` lists them. */
  async sessions(root: string): Promise<TimedEntry[]> {
    const files = await listLedgerFilesAsync(root);
    const entries = new Array<TimedEntry>(files.length);
    let next = 0;
    const work = async (): Promise<void> => {
      while (next < files.length) {
        const at = next++;
        entries[at] = await this.file(root, files[at]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, files.length) }, work));
    return entries;
  }

  /** One session as it is now on disk, or undefined when it has no ledger (any more). */
  async session(root: string, session: string): Promise<TimedEntry | undefined> {
    if (sessionIdProblem(session) !== null) return undefined;
    const read = await this.fromWorker({ type: 'session', root, session });
    return read === 'failed' ? readSessionAsync(root, session) : (read ?? undefined);
  }

  /**
   * Up to `limit` records of one epoch of a session before its position `end` (undefined: the
   * newest) and how many it holds: asked of the worker, which keeps a long ledger's read (read
   * here when there is no worker or it failed).
   */
  async epochRecords(
    root: string,
    session: string,
    epoch: number,
    limit: number,
    end?: number,
  ): Promise<{ records: IterationRecord[]; total: number }> {
    if (this.channel !== undefined && !this.disposed) {
      try {
        const reply = await this.channel.request({ type: 'epoch', root, session, epoch, limit, end });
        if (reply.error === undefined && reply.records && reply.total !== undefined)
          return { records: reply.records, total: reply.total };
      } catch {
        // read below
      }
    }
    return epochRecords((await readSessionAsync(root, session))?.entry, epoch, limit, end);
  }

  dispose(): void {
    this.disposed = true;
    this.channel?.dispose();
  }

  private async file(root: string, file: LedgerFileRef): Promise<TimedEntry> {
    const read = await this.fromWorker({ type: 'file', root, file });
    return read === 'failed' || read === null ? readListedAsync(root, file) : read;
  }

  /** The worker's entry with all its records, null for no ledger, 'failed' to read inline. */
  private async fromWorker(request: Request): Promise<TimedEntry | null | 'failed'> {
    if (this.channel === undefined || this.disposed) return 'failed';
    try {
      const reply = await this.channel.request(request);
      if (reply.error !== undefined || reply.timed === undefined) return 'failed';
      const timed = reply.timed;
      if (timed?.entry.kind === 'ledger' && timed.entry.held) this.heldInWorker += 1;
      this.readInWorker += 1;
      return timed;
    } catch {
      return 'failed';
    }
  }
}
