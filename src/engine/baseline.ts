// The baseline a new measurement is compared against: the newest earlier record that carries
// measurements — across every epoch, as the original engine does — else the rubric's declared
// baselines. An unmeasured record never becomes a baseline: a blank pass must not erase the
// last real reading.
import { measuredValues, type RecordsSummary } from './records-summary';
import { copyTextKeyed, textKeyed } from './text-keyed';
import type { Ledger } from './types';

/**
 * `summary`, when given, stands for the records (records-summary.ts: its `measurements` is the
 * newest measured record's, by the same rule); `ledger.iterations` is then not read.
 */
export function deriveBaseline(
  ledger: Pick<Ledger, 'iterations' | 'contract'>,
  summary?: RecordsSummary,
): Record<string, number> {
  const newest = summary ? summary.measurements : newestMeasured(ledger);
  if (newest !== null) return copyTextKeyed(newest);
  const declared = textKeyed<number>();
  for (const dim of ledger.contract.quality_rubric ?? []) declared[dim.dimension] = dim.baseline;
  return declared;
}

function newestMeasured(ledger: Pick<Ledger, 'iterations'>): Record<string, number> | null {
  const records = ledger.iterations;
  for (let i = records.length - 1; i >= 0; i--) {
    const measured = measuredValues(records[i] as Ledger['iterations'][number]);
    if (measured !== null) return measured;
  }
  return null;
}
