// A ledger's epochs as the tree shows them: each re-open of a closed loop starts a new epoch
// under a (possibly new) contract; past epochs keep how they ended in `epochs[]`.
import { currentEpoch, recordEpoch } from '../../engine/ledger-view';
import type { Contract, IterationRecord, Ledger, Outcome } from '../../engine/types';
import { sessionState, type SessionState } from './sessionEntry';

export interface EpochView {
  readonly n: number;
  readonly purpose: string;
  readonly iterationLimit: number | null;
  /** The current epoch's state is the ledger's; a past epoch is always closed. */
  readonly state: SessionState;
  /** How the epoch ended (null while it is open). */
  readonly finalOutcome: Outcome | null;
  readonly current: boolean;
  readonly records: readonly IterationRecord[];
  /** The close facts of a closed epoch, for its tooltip. */
  readonly closeNote: string | null;
  readonly closeBlocker: string | null;
}

export function epochsOf(ledger: Ledger): EpochView[] {
  const byEpoch = new Map<number, IterationRecord[]>();
  for (const record of ledger.iterations) {
    const list = byEpoch.get(recordEpoch(record)) ?? [];
    list.push(record);
    byEpoch.set(recordEpoch(record), list);
  }
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
    closeNote: ledger.close_note ?? null,
    closeBlocker: ledger.close_blocker ?? null,
  });
  return views;
}

/** The current epoch: the one `n/limit` and the stall predicates count. */
export function currentEpochView(ledger: Ledger): EpochView {
  return epochsOf(ledger).at(-1) as EpochView;
}

function purposeOf(contract: Contract | undefined): string {
  return typeof contract?.purpose === 'string' ? contract.purpose : '(no purpose)';
}

function limitOf(contract: Contract | undefined): number | null {
  return typeof contract?.iteration_limit === 'number' ? contract.iteration_limit : null;
}
