// A ledger's epochs as the tree shows them: each re-open of a closed loop starts a new epoch
// under a (possibly new) contract; past epochs keep how they ended in `epochs[]`.
import { currentEpoch, recordEpoch } from '../../engine/ledger-view';
import type { Contract, IterationRecord, Ledger, Outcome } from '../../engine/types';
import { sessionState, type HeldRecords, type SessionEntry, type SessionState } from './sessionEntry';

export interface EpochView {
  readonly n: number;
  readonly purpose: string;
  readonly iterationLimit: number | null;
  /** The current epoch's state is the ledger's; a past epoch is always closed. */
  readonly state: SessionState;
  /** How the epoch ended (null while it is open). */
  readonly finalOutcome: Outcome | null;
  readonly current: boolean;
  /** The epoch's records at hand: all of them, or of a long ledger only the newest (see `count`). */
  readonly records: readonly IterationRecord[];
  /** How many records the epoch holds in all. */
  readonly count: number;
  /** The close facts of a closed epoch, for its tooltip. */
  readonly closeNote: string | null;
  readonly closeBlocker: string | null;
}

/** `held`: how many records each epoch holds when `ledger.iterations` is only the newest of them. */
export function epochsOf(ledger: Ledger, held?: HeldRecords): EpochView[] {
  const byEpoch = new Map<number, IterationRecord[]>();
  for (const record of ledger.iterations) {
    const list = byEpoch.get(recordEpoch(record)) ?? [];
    list.push(record);
    byEpoch.set(recordEpoch(record), list);
  }
  const countOf = (n: number): number => (held ? (held.byEpoch[n] ?? 0) : (byEpoch.get(n)?.length ?? 0));
  const views: EpochView[] = (ledger.epochs ?? []).map((entry, index) => {
    const n = typeof entry.n === 'number' ? entry.n : index + 1;
    return {
      n,
      purpose: purposeOf(entry.contract),
      iterationLimit: limitOf(entry.contract),
      state: sessionState({ status: 'closed', final_outcome: entry.final_outcome }),
      finalOutcome: entry.final_outcome ?? null,
      current: false,
      records: byEpoch.get(n) ?? [],
      count: countOf(n),
      closeNote: entry.close_note ?? null,
      closeBlocker: entry.close_blocker ?? null,
    };
  });
  const n = currentEpoch(ledger);
  views.push({
    n,
    purpose: purposeOf(ledger.contract),
    iterationLimit: limitOf(ledger.contract),
    state: sessionState(ledger),
    finalOutcome: ledger.status === 'closed' ? (ledger.final_outcome ?? null) : null,
    current: true,
    records: byEpoch.get(n) ?? [],
    count: countOf(n),
    closeNote: ledger.close_note ?? null,
    closeBlocker: ledger.close_blocker ?? null,
  });
  return views;
}

/** The current epoch: the one `n/limit` and the stall predicates count. */
export function currentEpochView(ledger: Ledger, held?: HeldRecords): EpochView {
  return epochsOf(ledger, held).at(-1) as EpochView;
}

function purposeOf(contract: Contract | undefined): string {
  return typeof contract?.purpose === 'string' ? contract.purpose : '(no purpose)';
}

function limitOf(contract: Contract | undefined): number | null {
  return typeof contract?.iteration_limit === 'number' ? contract.iteration_limit : null;
}

/**
 * Up to `limit` records of epoch `epoch` of a read entry that come before position `end` in the
 * epoch (all of them when undefined: its newest), oldest first, and how many the epoch holds.
 * Positions count from the epoch's first record, so a page asked for by position stays the same
 * while later records are appended.
 */
export function epochRecords(
  entry: SessionEntry | undefined,
  epoch: number,
  limit: number,
  end?: number,
): { records: IterationRecord[]; total: number } {
  if (entry?.kind !== 'ledger') return { records: [], total: 0 };
  const all = entry.ledger.iterations.filter((record) => recordEpoch(record) === epoch);
  const stop = Math.max(0, Math.min(all.length, end ?? all.length));
  return { records: all.slice(Math.max(0, stop - limit), stop), total: all.length };
}
