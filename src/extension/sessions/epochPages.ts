// Which records of an epoch of a long ledger the Sessions tree shows. A long ledger's records stay
// in the ledger worker (see sessionsWorker.ts); the tree fetches an epoch's newest page of them
// when the epoch is expanded, and one older page more each time the person asks ("Show older
// iterations…"), so the host never receives more than a page at a time. No `vscode` here: unit
// tests drive it against the real worker.
import type { IterationRecord } from '../../engine/types';
import type { SessionEntry } from './sessionEntry';
import type { SessionsReader } from './sessionsReader';

/**
 * The rows shown under one epoch: records `start`… of the epoch (positions from its first
 * record), fetched for the session's `entry` of that time.
 */
export interface EpochPage {
  readonly entry: SessionEntry;
  readonly start: number;
  readonly records: readonly IterationRecord[];
}

/** Where an epoch is: its session (as read now) under a root, and the epoch's number. */
export interface EpochAt {
  readonly root: string;
  readonly entry: SessionEntry;
  readonly epoch: number;
}

export class EpochPages {
  /** The rows shown under each expanded epoch, by a key the caller gives (the tree's node id). */
  private readonly pages = new Map<string, EpochPage>();

  /** `rows`: how many records one page holds (read at each fetch; tests lower it). */
  constructor(
    private readonly reader: SessionsReader,
    private readonly rows: () => number,
  ) {}

  /**
   * The rows to show under an epoch: those shown so far while the session was not re-read since,
   * else its newest page fetched again, below the older pages already shown when they reach it.
   */
  async shown(key: string, at: EpochAt): Promise<EpochPage> {
    const before = this.pages.get(key);
    if (before?.entry === at.entry) return before;
    const { records, total } = await this.reader.epochRecords(
      at.root,
      at.entry.session,
      at.epoch,
      this.rows(),
    );
    const page = joinPages(before, { entry: at.entry, start: total - records.length, records });
    this.pages.set(key, page);
    return page;
  }

  /**
   * Fetches the page of records before the oldest shown and shows them above it. Resolves with
   * how many were added (0 when there are none, or the rows were replaced meanwhile).
   */
  async older(key: string, at: EpochAt): Promise<number> {
    const before = this.pages.get(key);
    if (!before || before.start === 0) return 0;
    const { records } = await this.reader.epochRecords(
      at.root,
      at.entry.session,
      at.epoch,
      this.rows(),
      before.start,
    );
    // A re-read replaced the rows meanwhile: the next expand starts from the fresh ones.
    if (this.pages.get(key) !== before) return 0;
    this.pages.set(key, {
      entry: before.entry,
      start: before.start - records.length,
      records: records.concat(before.records),
    });
    return records.length;
  }

  /** Forgets the rows of every key that starts with `prefix` (a session that went away). */
  forget(prefix: string): void {
    for (const key of [...this.pages.keys()]) if (key.startsWith(prefix)) this.pages.delete(key);
  }

  clear(): void {
    this.pages.clear();
  }
}

/**
 * The rows after a re-read: the fresh newest page, below the older rows shown before when they
 * reach it (an epoch's records only ever grow at its end). When more new records arrived than a
 * page holds, or the records at the seam differ, only the fresh page is shown.
 */
function joinPages(before: EpochPage | undefined, fresh: EpochPage): EpochPage {
  if (!before || before.start >= fresh.start || before.start + before.records.length < fresh.start)
    return fresh;
  const seam = before.records[fresh.start - before.start];
  if (seam !== undefined && fresh.records[0] !== undefined && seam.n !== fresh.records[0].n) return fresh;
  return {
    entry: fresh.entry,
    start: before.start,
    records: before.records.slice(0, fresh.start - before.start).concat(fresh.records),
  };
}
