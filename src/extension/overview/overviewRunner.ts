// Prepares session overviews off the extension host's thread. A ledger the Sessions tree already
// holds and that is small is prepared inline (a worker round trip would cost more); any other goes
// to one long-lived worker thread (overviewWorker.ts), which reads the file itself, so the host
// never parses a large ledger for the overview. If the worker cannot start or dies, the work runs
// inline: the page is never left without an answer. No `vscode` here, so the benchmark drives
// exactly this code.
import type { RecordLine } from '../../shared/overview-protocol';
import { readSessionAsync, type SessionEntry } from '../sessions/sessionEntry';
import { iterationOf, prepareOverview, type PreparedOverview } from './overviewPrepare';
import type { OverviewWorkerRequest } from './overviewWorker';
import { WorkerChannel } from '../workerChannel';
import { INLINE_RECORDS } from './overviewLimits';
import { glanceOverview } from './overviewGlance';

export { INLINE_RECORDS };

/**
 * How long the full answer has to arrive before a glance is shown: when it is that quick the page
 * draws once, with every iteration, instead of changing its picture a moment after.
 */
export const GLANCE_AFTER_MS = 150;

export type IterationAnswer = { lines: RecordLine[]; brief: string | null } | null;

type Reply = { id: number; prepared?: PreparedOverview; iteration?: IterationAnswer; error?: string };
type Request = OverviewWorkerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

export class OverviewRunner {
  private readonly channel: WorkerChannel<Request, Reply> | undefined;
  /** False when the channel is the Sessions tree's: the tree's reader ends that worker. */
  private readonly ownsChannel: boolean;
  private disposed = false;
  /** How many requests the worker answered (tests and the benchmark read it). */
  answeredInWorker = 0;

  /**
   * `worker`: the bundled overviewWorker.js, or the channel to it the Sessions tree already
   * reads through (then a ledger the tree has read is not parsed again); undefined runs
   * everything inline.
   */
  constructor(worker: string | WorkerChannel<object, { id: number }> | undefined) {
    this.ownsChannel = typeof worker === 'string';
    this.channel =
      typeof worker === 'string'
        ? new WorkerChannel(worker, 'overview worker')
        : (worker as WorkerChannel<Request, Reply> | undefined);
  }

  /**
   * The overview of a session. `known` is the tree's entry for it when the tree has read it:
   * used as is when it is small or unreadable, else the worker reads the file.
   */
  async overview(
    root: string,
    session: string,
    buckets: number,
    known?: SessionEntry,
  ): Promise<PreparedOverview> {
    if (known && isSmall(known)) return prepareOverview(known, buckets);
    const reply = await this.tryWorker({ type: 'overview', root, session, buckets });
    if (reply?.prepared) return reply.prepared;
    return prepareOverview((await readSessionAsync(root, session))?.entry, buckets);
  }

  /**
   * The overview as a page opens it: `overview`, and meanwhile, for a long ledger whose full read
   * takes longer than GLANCE_AFTER_MS, a first look at its newest records (overviewGlance.ts)
   * handed to `onGlance` — never after the full answer is in.
   */
  async open(
    root: string,
    session: string,
    buckets: number,
    known: SessionEntry | undefined,
    onGlance: (glance: PreparedOverview) => void,
  ): Promise<PreparedOverview> {
    if (known && isSmall(known)) return prepareOverview(known, buckets);
    let done = false;
    const full = this.overview(root, session, buckets, known).finally(() => {
      done = true;
    });
    const wait = new Promise((resolve) => setTimeout(resolve, GLANCE_AFTER_MS));
    void Promise.all([glanceOverview(root, session, buckets).catch(() => null), wait]).then(([glance]) => {
      if (glance && !done && !this.disposed) {
        this.glancesShown += 1;
        onGlance(glance);
      }
    });
    return full;
  }

  /** How many glances were handed out (tests read it). */
  glancesShown = 0;

  /** Record `n` in words, or null when the ledger has no such record. */
  async iteration(root: string, session: string, n: number, known?: SessionEntry): Promise<IterationAnswer> {
    if (known && isSmall(known)) return iterationOf(known, n) ?? null;
    const reply = await this.tryWorker({ type: 'iteration', root, session, n });
    if (reply && reply.iteration !== undefined) return reply.iteration;
    return iterationOf((await readSessionAsync(root, session))?.entry, n) ?? null;
  }

  /** The worker's reply, or undefined when there is no worker or it failed. */
  private async tryWorker(request: Request): Promise<Reply | undefined> {
    if (this.channel === undefined || this.disposed) return undefined;
    try {
      const reply = await this.channel.request(request);
      if (reply.error !== undefined) return undefined;
      this.answeredInWorker += 1;
      return reply;
    } catch {
      return undefined;
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.ownsChannel) this.channel?.dispose();
  }
}

function isSmall(entry: SessionEntry): boolean {
  return (
    entry.kind === 'broken' || (entry.held === undefined && entry.ledger.iterations.length <= INLINE_RECORDS)
  );
}
