// What `status` and `iterate` need to know about the records already in a ledger, as one fold
// over them: the count, the stalls, the last record, the newest judged and measured records, and
// per epoch the record count with the error signatures and state hashes the stall predicates
// compare against. Both commands read old records only through this summary, so a ledger whose
// summary was stored beside its records (the store's fast path) and one whose records were all
// parsed answer through the same rules. Pure.
//
// It is a fold: appending a record updates it without the records before (addRecord), which is
// what lets an append leave the old records unparsed.
import { recordEpoch } from './ledger-view';
import { addSpend, hasSpend, recordSpend, type Spend } from './spend';
import { ownValue, setOwn, textKeyed } from './text-keyed';
import type { IterationRecord, Outcome } from './types';

export interface EpochSummary {
  /** How many records the epoch holds. */
  records: number;
  /**
   * The epoch's records' non-null `error_signature`s and `state_hash`es, in record order, repeats
   * kept. Lists, not maps: a long loop has one of each per record, and a list of text parses,
   * checks and prints several times faster than an object of as many keys.
   */
  errors: string[];
  states: string[];
  /** What the epoch's records reported of cost and tokens; absent until one reports any. */
  spend?: Spend;
}

/** The newest judged record's quality keys (status reports them together, from it alone). */
export interface JudgedSummary {
  n: number;
  verdict: 'pass' | 'fail' | null;
  weighted_total: number | null;
  critic_verdict: string | null;
  decision: string | null;
}

export interface RecordsSummary {
  count: number;
  /** Keyed by the epoch number as text. */
  epochs: Record<string, EpochSummary>;
  judged: JudgedSummary | null;
  last: { outcome: Outcome; timestamp: string | null } | null;
  /** The newest non-empty `measurements` (the baseline of the next measured iteration). */
  measurements: Record<string, number> | null;
  /** Every non-null `stall`, in record order. */
  stalls: string[];
}

/** A record that was judged: scored, reviewed or decided. */
export function isJudged(record: IterationRecord): boolean {
  return Boolean(record.evaluation || record.critic_verdict || record.decision);
}

/** A record whose measurements can serve as a baseline (an unmeasured record never does). */
export function measuredValues(record: IterationRecord): Record<string, number> | null {
  const measured = record.measurements;
  if (!measured) return null;
  // One own key is enough (Object.keys would build a list per record of a long ledger).
  for (const key in measured) if (Object.hasOwn(measured, key)) return measured;
  return null;
}

export function emptySummary(): RecordsSummary {
  return { count: 0, epochs: textKeyed(), judged: null, last: null, measurements: null, stalls: [] };
}

/** Folds one more record (the next in file order) into `summary`, in place. */
export function addRecord(summary: RecordsSummary, record: IterationRecord): RecordsSummary {
  return addToEpoch(summary, epochEntry(summary, recordEpoch(record)), record);
}

/** The summary of `records`, folded from the first. */
export function summarizeRecords(records: readonly IterationRecord[]): RecordsSummary {
  const summary = emptySummary();
  // Consecutive records share an epoch: its entry is looked up once per run of them.
  let epochNumber: number | undefined;
  let epoch: EpochSummary | undefined;
  for (const record of records) {
    const n = recordEpoch(record);
    if (epoch === undefined || n !== epochNumber) {
      epochNumber = n;
      epoch = epochEntry(summary, n);
    }
    addToEpoch(summary, epoch, record);
  }
  return summary;
}

/** The summary's entry for epoch `n`, made when it has none yet. */
function epochEntry(summary: RecordsSummary, n: number): EpochSummary {
  const key = String(n);
  let epoch = ownValue(summary.epochs, key);
  if (epoch === undefined) {
    epoch = { records: 0, errors: [], states: [] };
    setOwn(summary.epochs, key, epoch);
  }
  return epoch;
}

/** addRecord, with the record's epoch entry already found. */
function addToEpoch(summary: RecordsSummary, epoch: EpochSummary, record: IterationRecord): RecordsSummary {
  summary.count += 1;
  epoch.records += 1;
  if (typeof record.error_signature === 'string') epoch.errors.push(record.error_signature);
  if (typeof record.state_hash === 'string') epoch.states.push(record.state_hash);
  // Most records report no spend: look before building one.
  if (record.cost_usd !== undefined || record.tokens_in !== undefined || record.tokens_out !== undefined) {
    const spent = recordSpend(record);
    if (hasSpend(spent))
      epoch.spend = addSpend(epoch.spend ?? { cost_usd: 0, tokens_in: 0, tokens_out: 0 }, spent);
  }
  if (isJudged(record)) {
    summary.judged = {
      n: record.n,
      verdict: record.evaluation?.verdict ?? null,
      weighted_total: record.evaluation?.weighted_total ?? null,
      critic_verdict: record.critic_verdict ?? null,
      decision: record.decision ?? null,
    };
  }
  summary.last = { outcome: record.outcome, timestamp: record.timestamp ?? null };
  const measured = measuredValues(record);
  if (measured !== null) summary.measurements = measured;
  if (record.stall !== null && record.stall !== undefined) summary.stalls.push(record.stall);
  return summary;
}

/** The epoch's part of the summary (an epoch without records has none). */
export function epochSummary(summary: RecordsSummary, epoch: number): EpochSummary {
  return ownValue(summary.epochs, String(epoch)) ?? { records: 0, errors: [], states: [] };
}
